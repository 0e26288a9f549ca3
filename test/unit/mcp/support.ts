// The MCP server as agents reach it: the built dist/cli.js started by the SDK's stdio client
// transport, the emulator in-process on 127.0.0.1, and every byte the server wrote kept.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve('dist/cli.js');
/** Emulator entity tokens and session tickets start with base64url of `{"t":"`. */
export const EMULATOR_TOKEN = /eyJ0Ijoi/;

export interface Session {
  client: Client;
  /** Every byte the server wrote to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  close(): Promise<void>;
}

export async function connect(args: string[], env: Record<string, string>): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  let err = '';
  let out = '';
  transport.stderr?.on('data', (d: Buffer) => { err += d.toString('utf8'); });
  const client = new Client({ name: 'platform-explorer-test', version: '1.0.0' });
  await client.connect(transport);
  // The transport parses stdout itself; a second listener on the same stream keeps the raw bytes.
  (transport as unknown as { _process: ChildProcess })._process.stdout!.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  return { client, stdout: () => out, stderr: () => err, close: () => client.close() };
}

export interface CallText {
  isError: boolean;
  text: string;
  // Tests read fields freely from tool results.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function call(s: Session, name: string, args: Record<string, unknown>): Promise<CallText> {
  const r = await s.client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join('');
  return { isError: r.isError === true, text, json: JSON.parse(text) };
}
