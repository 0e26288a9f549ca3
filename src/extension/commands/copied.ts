// What a copy says: in the status bar (seen) and in a notification, which screen readers
// announce; a status-bar note alone is silent to them (issue 30).
import type { CommandContext } from './context';

export function sayCopied(c: CommandContext, message: string): void {
  c.ui.status(message);
  void c.ui.info(message);
}
