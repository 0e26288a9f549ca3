// A child process standing in for one VS Code window resuming a batch: the editor's path through
// the core (Journal.open, then runBatch with the user's confirmation to resend unknown outcomes).
// Usage: node out/test/unit/deletion/window.js JOURNAL ENDPOINT TITLEID (key in PLATFORM_SECRET_KEY).
import { PlatformClient } from '../../../src/core/api/client';
import { cliAnchors } from '../../../src/cli/files';
import { Journal, runBatch } from '../../../src/core/deletion';

async function main(): Promise<void> {
  const [path, endpoint, titleId] = process.argv.slice(2);
  const key = process.env.PLATFORM_SECRET_KEY!;
  let journal: Journal;
  try {
    // The anchors of the CLI runs racing it ($XDG_STATE_HOME from the test).
    journal = await Journal.open(path, { key: () => Promise.resolve(key), anchors: cliAnchors() });
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ refused: (e as Error).message })}\n`);
    return;
  }
  const client = new PlatformClient({ titleId, endpoint, getSecretKey: () => Promise.resolve(key), maxRetries: 0 });
  try {
    const r = await runBatch(client, journal, { resendUnknown: true });
    process.stdout.write(`${JSON.stringify({ sent: r.sent, queued: r.queued })}\n`);
  } finally {
    await client.close();
    await journal.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
