// The launcher login request as the published contract wants it, from what a caller wrote.
import { INFO_REQUEST_FLAGS, PROFILE_CONSTRAINT_FLAGS } from './operations';
import type { LoginRequestInput, LoginWithLauncherRequest } from './types';

/** InfoRequestParameters as the published contract wants it: every flag present, false unless asked for. */
export function completeLoginRequest(r: LoginRequestInput): LoginWithLauncherRequest {
  const info = r.InfoRequestParameters;
  if (info === undefined) {
    return r as LoginWithLauncherRequest;
  }
  const flags = Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, info[f] === true]));
  const completed: Record<string, unknown> = { ...info, ...flags };
  if (info.ProfileConstraints !== undefined) {
    const pc = info.ProfileConstraints;
    completed.ProfileConstraints = { ...pc, ...Object.fromEntries(PROFILE_CONSTRAINT_FLAGS.map((f) => [f, pc[f] === true])) };
  }
  return { ...r, InfoRequestParameters: completed as LoginWithLauncherRequest['InfoRequestParameters'] };
}
