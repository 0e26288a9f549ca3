// What each service error says to the user: the general text of each code, and the texts the
// operation table's rows carry (operations.ts: each row's `errors`) where a code means something
// else for that operation. A row's texts are looked up first (errors.ts: describeServiceError).
// No imports: the table and errors.ts both read this file.

export interface ErrorText { readonly title: string; readonly hint: string }

/**
 * A row's texts: every row says what AccountNotFound and InvalidParams mean for it, and has a text
 * for each error its description documents (docs/api-schema.json; the contract test names a missing one).
 */
export type ErrorTexts = { readonly AccountNotFound: ErrorText; readonly InvalidParams: ErrorText } & { readonly [error: string]: ErrorText };

export const CHECK_KEY = 'Check that the secret key saved for this title is the current one from the title\'s management portal, and set it again if it changed.';
export const RETRY_LATER = 'Wait a moment and try again.';

/** The general title and hint of each service error code (errors.ts checks that every code in ErrorCodes has one). */
export const GENERAL = {
  InvalidParams: { title: 'The request had invalid parameters.', hint: 'Check the fields named in the details and correct them.' },
  AccountNotFound: { title: 'No player account matches this identity.', hint: 'Check the identity, or log in with "create account" turned on to create one.' },
  AccountBanned: { title: 'The player account is banned.', hint: 'Lift the ban in the title\'s management portal if it was a mistake.' },
  InvalidTitleId: { title: 'The title ID does not match the address the request was sent to.', hint: 'Check the title ID and the service endpoint setting.' },
  EmailAddressNotAvailable: {
    title: 'The title has no notification e-mail address, so the service cannot send the export\'s download link.',
    hint: 'Configure the title\'s notification address in the title\'s management portal (the title\'s settings, e-mail), then request the export again.',
  },
  TitleNotActivated: { title: 'The title is not activated.', hint: 'Activate the title in its management portal, then try again.' },
  InvalidRequest: { title: 'The service rejected the request as invalid.', hint: 'Check the input; if it looks right, report it with the log.' },
  NotAuthenticated: { title: 'The request was not authenticated.', hint: CHECK_KEY },
  NotAuthorized: { title: 'The credentials are not allowed to do this.', hint: 'Use a secret key with the needed permissions for this title.' },
  InternalServerError: { title: 'The service had an internal error.', hint: RETRY_LATER },
  ServiceUnavailable: { title: 'The service is temporarily unavailable.', hint: RETRY_LATER },
  DownstreamServiceUnavailable: { title: 'A service the Platform depends on is temporarily unavailable.', hint: RETRY_LATER },
  ConcurrentEditError: { title: 'Someone else changed the same data at the same time.', hint: 'Try again; reload first if you were looking at old data.' },
  InvalidContentType: { title: 'The request was not sent as JSON.', hint: 'This is a bug in Platform Explorer; please report it with the log.' },
  APIClientRequestRateLimitExceeded: { title: 'Too many requests: the service is throttling this title.', hint: 'Wait for the time given, then try again with fewer identifiers at once.' },
  InvalidSignature: { title: 'The identity token\'s signature is not valid for this title.', hint: 'Check that the launcher token was issued for this title, and that the title\'s launcher key is set up.' },
  DataUpdateRateExceeded: { title: 'Data is being updated too fast.', hint: RETRY_LATER },
  EncryptionKeyMissing: { title: 'The title has no launcher encryption key set up.', hint: 'Set up the launcher key in the title\'s management portal.' },
  SecretKeyNotFound: { title: 'The service does not accept this secret key for the title.', hint: CHECK_KEY },
  PlayerSecretAlreadyConfigured: { title: 'The player secret is already configured.', hint: 'No action needed unless you meant to replace it.' },
  RequestViewConstraintParamsNotAllowed: { title: 'The requested profile fields are not allowed for this title.', hint: 'Ask for fewer profile fields, or allow them in the title\'s client profile settings.' },
  AccountDeleted: { title: 'This player account is being deleted.', hint: 'Wait until the deletion finishes (a confirmation e-mail is sent) before creating the account again.' },
  PlayerSecretNotConfigured: { title: 'The player secret is not configured.', hint: 'Configure the player secret for this title, then try again.' },
  InvalidSignatureTime: { title: 'The identity token is expired or not yet valid.', hint: 'Get a fresh launcher token and check the computer\'s clock.' },
  InvalidAuthToken: { title: 'The identity token is not valid.', hint: 'Get a fresh launcher token and paste it whole.' },
  EntityTokenMissing: { title: 'The entity token was missing.', hint: 'Try again; Platform Explorer fetches a new title token automatically.' },
  EntityTokenInvalid: { title: 'The entity token is not valid.', hint: 'Try again; if it keeps failing, check the secret key for this title.' },
  EntityTokenExpired: { title: 'The entity token has expired.', hint: 'Try again; Platform Explorer fetches a new title token automatically.' },
  EntityTokenRevoked: { title: 'The entity token was revoked.', hint: 'Try again to get a new token; if it keeps failing, check the secret key.' },
  APIConcurrentRequestLimitExceeded: { title: 'Too many requests at the same time for this title.', hint: 'Wait a moment and try again with fewer parallel requests.' },
  InvalidEntityType: { title: 'The token is of the wrong kind for this operation (add-on operations need a title token, not a player token).', hint: 'Use the title\'s secret key so Platform Explorer can get a title token.' },
  EvaluationModePlayerCountExceeded: { title: 'The title has reached its evaluation-mode player limit.', hint: 'Upgrade the title\'s plan in the management portal to add more players.' },
  LauncherNotEnabledForTitle: { title: 'Launcher login is not enabled for this title.', hint: 'Enable the Launcher add-on in the title\'s management portal.' },
  CatalogBadRequest: { title: 'The store catalog rejected the request.', hint: 'Check the add-on\'s configuration in the title\'s management portal.' },
  AddonAlreadyExists: { title: 'The add-on already exists.', hint: 'No action needed; refresh to see it.' },
  AddonDoesntExist: { title: 'The add-on does not exist (it may already have been deleted).', hint: 'Refresh the view; nothing needs deleting.' },
} satisfies Record<string, ErrorText>;

/** The general texts of `names`, for a row whose errors mean what they mean everywhere. */
export function general<N extends keyof typeof GENERAL>(...names: N[]): Pick<typeof GENERAL, N> {
  return Object.fromEntries(names.map((n) => [n, GENERAL[n]])) as Pick<typeof GENERAL, N>;
}

/** AccountNotFound for an operation on a PlatformId: the player is gone. */
export const NO_SUCH_PLAYER: ErrorText = {
  title: 'No player with this PlatformId exists for this title (it may already have been deleted).',
  hint: 'Check the PlatformId. A player whose master account deletion has completed no longer exists, so there is nothing left to do for it.',
};

/** AccountNotFound for an account lookup: lookups are title-specific. */
export const NOT_IN_THIS_TITLE: ErrorText = {
  title: 'No account matches this identifier in this title.',
  hint: 'Lookups are title-specific: a player is found only through a title the player has played. Ask each title (with its own key), or check the identifier.',
};

/** AccountNotFound for a PlatformId lookup by provider identifiers. */
export const NOT_LINKED: ErrorText = {
  title: 'No player of this title is linked to these identifiers.',
  hint: 'Check the identifiers (and for ConsoleLive, the sandbox). An identifier linked to no player of this title comes back as not linked.',
};

/** AccountNotFound for a call made with the title's own credentials (add-ons, title tokens): no player is involved. */
export const NO_TITLE_ACCOUNT: ErrorText = {
  title: 'The service found no account for the title\'s credentials.',
  hint: CHECK_KEY,
};

/** GetEntityToken's own documented errors. */
export const TOKEN_ERRORS = {
  EncryptionKeyBroken: {
    title: 'The title\'s encryption key is broken, so the service cannot issue a title token.',
    hint: 'Check the title\'s keys in its management portal, then try again; if it keeps failing, report it with the log.',
  },
  NoValidCertificateForAad: {
    title: 'The service has no valid certificate for the sign-in this token request used.',
    hint: 'Use the title\'s secret key; if it keeps failing, report it with the log.',
  },
} satisfies Record<string, ErrorText>;
