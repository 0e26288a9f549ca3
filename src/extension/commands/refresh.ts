// Refresh (the Titles view and the emulator's probe) and Show Log, from the Titles view's title bar.
import { defineCommand, noArguments } from './define';

export const refreshCommand = defineCommand({
  id: 'platformExplorer.refresh',
  title: 'Refresh',
  category: true,
  icon: 'refresh',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles', group: 'navigation@2' },
    ],
  },
  parse: noArguments,
  handler: async ({ services }) => {
    services.tree.refresh();
    await services.emulatorProbe.refresh();
  },
});

export const showLogCommand = defineCommand({
  id: 'platformExplorer.showLog',
  title: 'Show Log',
  category: true,
  icon: 'output',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles', group: '3_log@1' },
    ],
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\berror\\b/', group: 'inline@1' },
    ],
  },
  parse: noArguments,
  handler: ({ services }) => services.log.show(),
});
