// Clear Secret Key: removes it from SecretStorage after a modal confirmation.
import { required } from '../errors';
import type { Services } from '../services';
import { resolveTitle } from './args';

export async function clearSecretKey(s: Services, arg?: unknown): Promise<boolean> {
  const title = await resolveTitle(s, arg);
  if (!(await s.secrets.has(title.titleId))) {
    void s.prompts.info(`${title.name} (${title.titleId}) has no secret key set.`);
    return false;
  }
  required(
    await s.prompts.confirm(
      `Clear the secret key of ${title.name} (${title.titleId})?`,
      'It is deleted from this machine\'s secret storage; commands for this title stop working until you set it again.',
      'Clear',
    ),
  );
  await s.secrets.delete(title.titleId);
  await s.clients.forget(title.titleId);
  return true;
}
