// Compile-time checks, run by `npm run typecheck` (never executed): each line marked as an
// expected error must fail to compile, or the typecheck fails with "Unused '@ts-expect-error'".
import type { PlatformClient } from '../../src/core/api/client';
import type { ToolClient } from '../../src/core/tools';

const PID = '9437A5ADDAE3012D';

export async function readAndMutateAreTypedByTheTable(client: PlatformClient): Promise<void> {
  // A read path cannot send a mutating operation.
  // @ts-expect-error DeleteMasterPlayerAccount mutates: read() does not take it
  await client.read('DeleteMasterPlayerAccount', { PlatformId: PID });
  // @ts-expect-error DeleteMobileStore mutates
  await client.read('DeleteMobileStore', {});
  // @ts-expect-error GetPlayedTitleList only reads: mutate() does not take it
  await client.mutate('GetPlayedTitleList', { PlatformId: PID });
  // @ts-expect-error a misspelled request member
  await client.read('GetPlayedTitleList', { PlatformID: PID });
  // @ts-expect-error a request without its required member
  await client.read('GetPlayedTitleList', {});
  // @ts-expect-error a member of the wrong type
  await client.mutate('DeleteMasterPlayerAccount', { PlatformId: PID, MetaData: 5 });
  // @ts-expect-error an operation the table lacks
  await client.read('GetPlayedTitles', { PlatformId: PID });

  // The answer is typed by the row's result schema.
  const played = await client.read('GetPlayedTitleList', { PlatformId: PID });
  const titles: string[] | undefined = played.TitleIds;
  // @ts-expect-error no such member in the result
  void played.TitleIdz;
  const job = await client.mutate('DeleteMasterPlayerAccount', { PlatformId: PID, MetaData: 'ticket 1' });
  const receipt: string | undefined = job.JobReceiptId;
  void [titles, receipt];
}

export function toolsOfferNoMutation(tool: ToolClient): void {
  // @ts-expect-error a tool's client has no deletion
  void tool.deleteMasterPlayerAccount;
}
