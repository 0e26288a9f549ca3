// Who is acting, for the rows the team store writes.
// PLACEHOLDER until the operator key (core/operator.ts, Ed25519, issue of the evidence work) is
// merged: derived from the OS user. Swap it here, in this one function, for the key's fingerprint
// and display name.
import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { Operator } from '../core/store/types';

export function cliOperator(): Operator {
  const user = userInfo().username;
  // Not a key's fingerprint: marked "os-user:" so no one mistakes it for one.
  const fingerprint = `os-user:${createHash('sha256').update(`${user}@${hostname()}`).digest('hex').slice(0, 16)}`;
  return { fingerprint, name: user };
}
