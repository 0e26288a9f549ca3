// Set / Replace Secret Key: password input, stored in SecretStorage only.
import { required } from '../errors';
import { validateSecretKey } from '../secrets';
import type { Services } from '../services';
import { resolveTitle } from './args';

export async function setSecretKey(s: Services, arg?: unknown): Promise<void> {
  const title = await resolveTitle(s, arg);
  const replacing = await s.secrets.has(title.titleId);
  const key = required(
    await s.prompts.input({
      title: `${replacing ? 'Replace' : 'Set'} the secret key of ${title.name} (${title.titleId})`,
      prompt: 'The title secret key from the title\'s management portal. It is kept in VS Code\'s secret storage only.',
      password: true,
      validateInput: validateSecretKey,
    }),
  );
  await s.secrets.set(title.titleId, key);
  await s.clients.forget(title.titleId);
  void s.prompts.info(`Secret key ${replacing ? 'replaced' : 'saved'} for ${title.name} (${title.titleId}).`);
}
