// The "Platform Explorer" log: one redacted line per HTTP attempt at debug level (Output ›
// Set Log Level › Debug shows them), command outcomes and failures at info and above.
// Recent lines of every level are kept in memory so tests (and a future "copy diagnostics") can read them.
import * as vscode from 'vscode';
import type { RequestLogEntry } from '../core/api/client';
import { redactText } from '../core/redact';

const KEEP_LINES = 500;

export class Log {
  private readonly channel: vscode.LogOutputChannel;
  private readonly recentLines: string[] = [];

  constructor(private readonly knownSecrets: () => readonly string[]) {
    this.channel = vscode.window.createOutputChannel('Platform Explorer', { log: true });
  }

  /** One line per request attempt: operation, title, status, errorCode, duration, proxy HOST:PORT; never a header, body or credential. */
  request(e: RequestLogEntry, viaProxy?: string): void {
    const parts = [
      e.operation,
      `title=${e.titleId}`,
      `status=${e.httpStatus ?? '-'}`,
      `errorCode=${e.errorCode ?? '-'}`,
      ...(e.error ? [`error=${e.error}`] : []),
      `attempt=${e.attempt}`,
      `${Math.round(e.durationMs)}ms`,
      ...(viaProxy ? [`via proxy ${viaProxy}`] : []),
    ];
    this.debug(parts.join(' '));
  }

  debug(line: string): void {
    this.channel.debug(this.keep(line));
  }

  info(line: string): void {
    this.channel.info(this.keep(line));
  }

  warn(line: string): void {
    this.channel.warn(this.keep(line));
  }

  error(line: string): void {
    this.channel.error(this.keep(line));
  }

  show(): void {
    this.channel.show(true);
  }

  recent(): readonly string[] {
    return [...this.recentLines];
  }

  private keep(line: string): string {
    const safe = redactText(line, this.knownSecrets());
    this.recentLines.push(safe);
    if (this.recentLines.length > KEEP_LINES) {
      this.recentLines.shift();
    }
    return safe;
  }

  dispose(): void {
    this.channel.dispose();
  }
}
