// Opens the service-endpoint setting where it can be set: it is machine-scoped, so when VS Code
// runs remotely (code-server, SSH, containers) it lives under Remote settings, not User.
import * as vscode from 'vscode';
import { defineCommand, noArguments } from './define';

export type SettingsScope = 'remote' | 'user';

export async function openEndpointSetting(): Promise<SettingsScope> {
  const query = 'platformExplorer.serviceEndpoint';
  if (vscode.env.remoteName) {
    await vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query });
    return 'remote';
  }
  await vscode.commands.executeCommand('workbench.action.openSettings', query);
  return 'user';
}

export const openEndpointSettingCommand = defineCommand({
  id: 'platformExplorer.openEndpointSetting',
  title: 'Open Service Endpoint Setting',
  category: true,
  icon: 'settings-gear',
  parse: noArguments,
  handler: openEndpointSetting,
});
