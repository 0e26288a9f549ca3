// The seed file's JSON Schema: printed by `platform-emulator --print-seed-schema`, committed as
// packages/emulator/seed.schema.json (a unit test keeps the two equal) and enforced on load.
import { PROFILE_CONSTRAINT_FLAGS } from '../../core/api/operations';
import { MAX_PLAYER_EVENTS } from '../stateCheck';
import type { JsonSchema } from './schemaCheck';

/** Upper bounds: a seed past them would take minutes and gigabytes to build. */
const MAX_SEED_TITLES = 1000;
export const MAX_SEED_PLAYERS = 200_000;
const MAX_COUNT = 2 ** 40;

const str = (maxLength: number, description?: string): JsonSchema => ({ type: 'string', maxLength, ...(description ? { description } : {}) });
const time: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z$',
  description: 'a UTC time like 2025-01-06T09:30:00Z',
};
const count: JsonSchema = { type: 'integer', minimum: 0, maximum: MAX_COUNT };
const hexId = (min: number, max: number, what: string): JsonSchema => ({
  type: 'string', pattern: `^[0-9A-Fa-f]{${min},${max}}$`, description: `${what}: ${min} to ${max} hexadecimal characters`,
});
const orGenerate = (s: JsonSchema, what: string): JsonSchema => ({
  anyOf: [{ type: 'string', enum: ['generate'] }, s],
  description: `"generate" or ${what}`,
});
const dataEntries: JsonSchema = {
  type: 'object',
  maxProperties: 1000,
  propertyNames: str(100),
  additionalProperties: {
    anyOf: [str(100_000), { $ref: '#/$defs/dataEntry' }],
    description: 'a string value or an object {"Value","LastUpdated"?,"Permission"?}',
  },
};

export const SEED_SCHEMA: JsonSchema & { $schema: string; $id: string; title: string } = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://platform-emulator.invalid/seed.schema.json',
  title: 'Platform emulator seed file',
  description: 'Titles, players and add-ons the emulator starts with (platform-emulator --seed FILE).',
  type: 'object',
  required: ['titles'],
  additionalProperties: false,
  properties: {
    $schema: str(500),
    description: str(2000),
    publisherId: { ...hexId(1, 16, 'the publisher ID of every title and player that names none'), default: '5E1D0' },
    titles: { type: 'array', minItems: 1, maxItems: MAX_SEED_TITLES, items: { $ref: '#/$defs/title' } },
    players: { type: 'array', maxItems: MAX_SEED_PLAYERS, items: { $ref: '#/$defs/player' } },
    playerTemplates: {
      type: 'array',
      maxItems: 100,
      description: 'Many similar players: "{n}" (or "{n:W}", zero-padded to W digits) in any string of player becomes start, start+step, ...',
      items: { $ref: '#/$defs/playerTemplate' },
    },
  },
  $defs: {
    title: {
      type: 'object',
      required: ['titleId', 'name'],
      additionalProperties: false,
      properties: {
        titleId: hexId(4, 16, 'a title ID'),
        name: str(200),
        publisherId: hexId(1, 16, 'a publisher ID'),
        secretKey: { ...orGenerate({ type: 'string', pattern: '^[A-Za-z0-9]{16,128}$', description: 'a key of 16 to 128 letters and digits' }, 'a key of 16 to 128 letters and digits'), default: 'generate' },
        notificationEmail: {
          anyOf: [str(320), { type: 'null' }],
          description: 'the address deletion receipts and export links are mailed to, or null for none (ExportMasterPlayerData then answers EmailAddressNotAvailable 1006); absent: privacy@title-<titleId>.example',
        },
        launcher: {
          type: 'object',
          additionalProperties: false,
          properties: { enabled: { type: 'boolean' }, issuer: str(500), audience: str(500) },
        },
        allowedProfileConstraints: { type: 'array', items: { type: 'string', enum: PROFILE_CONSTRAINT_FLAGS } },
        allowNonUniqueDisplayNames: {
          type: 'boolean',
          description: 'the title allows non-unique display names: as the service documents, GetUserAccountInfo by TitleDisplayName then always answers AccountNotFound (default false)',
        },
        currencies: { type: 'array', maxItems: 100, items: { $ref: '#/$defs/currency' } },
        addons: {
          type: 'object',
          additionalProperties: false,
          description: 'Each add-on: "default" (made from the title ID), null (absent) or its configuration. Absent members are "default".',
          properties: {
            HandheldStore: { anyOf: [{ type: 'string', enum: ['default'] }, { type: 'null' }, { $ref: '#/$defs/handheldStore' }] },
            MobileStore: { anyOf: [{ type: 'string', enum: ['default'] }, { type: 'null' }, { type: 'object', required: ['PackageName'], additionalProperties: false, properties: { PackageName: str(200) } }] },
            ConsoleNetB: { anyOf: [{ type: 'string', enum: ['default'] }, { type: 'null' }, { type: 'object', required: ['ProductId'], additionalProperties: false, properties: { ProductId: str(200) } }] },
          },
        },
        titleData: { type: 'object', maxProperties: 1000, propertyNames: str(100), additionalProperties: str(100_000) },
      },
    },
    currency: {
      type: 'object',
      required: ['code', 'initial'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', pattern: '^[A-Z0-9]{2}$', description: 'two capital letters or digits' },
        initial: count,
        rechargeMax: count,
        rechargeSeconds: count,
      },
    },
    handheldStore: {
      type: 'object',
      required: ['ApplicationID'],
      additionalProperties: false,
      properties: {
        ApplicationID: str(200),
        Environments: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/environment' } },
        SecondarySubscriptionEnvironments: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/environment' } },
        SubscriptionEnvironments: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/environment' } },
      },
    },
    environment: {
      type: 'object',
      required: ['ClientID', 'ClientSecret', 'ID'],
      additionalProperties: false,
      properties: { ClientID: str(200), ClientSecret: str(500), ID: str(200) },
    },
    player: {
      type: 'object',
      additionalProperties: false,
      properties: {
        platformId: { ...orGenerate(hexId(14, 16, 'a PlatformId'), 'a PlatformId of 14 to 16 hexadecimal characters'), default: 'generate' },
        publisherId: hexId(1, 16, 'a publisher ID'),
        created: time,
        username: str(100, 'unique among the players of a publisher'),
        displayName: str(100, 'shown in every title the player played unless the title gives its own; unique in each title'),
        bannedUntil: time,
        totalValueToDateInUSD: { ...count, description: 'whole US cents' },
        avatarUrl: str(2000),
        tags: { type: 'array', maxItems: 100, items: str(200) },
        country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'an ISO 3166 country code like DE' },
        contactEmail: str(320, 'the account\'s e-mail (GetUserAccountInfo\'s Email, PrivateInfo.Email): unique among the players of a publisher, in any case'),
        profileContactEmail: str(320, 'a contact e-mail of the player profile (ContactEmailAddresses) apart from the account\'s e-mail; absent: the account\'s e-mail. A lookup by Email never matches it, as on the service'),
        consoleLive: {
          type: 'array',
          maxItems: 100,
          items: { type: 'object', required: ['sandbox', 'id'], additionalProperties: false, properties: { sandbox: str(100), id: str(100) } },
        },
        storefrontNames: { type: 'array', maxItems: 100, items: str(200) },
        launcherSubjects: { type: 'array', maxItems: 100, items: str(500) },
        titles: {
          type: 'object',
          description: 'The titles this player has played, by title ID.',
          propertyNames: hexId(4, 16, 'a title ID'),
          additionalProperties: { $ref: '#/$defs/playerTitle' },
        },
        events: {
          type: 'array',
          maxItems: MAX_PLAYER_EVENTS,
          description: 'The player\'s event-stream and telemetry events (DeleteMasterPlayerEventData deletes them; an export includes them).',
          items: { $ref: '#/$defs/playerEvent' },
        },
      },
    },
    playerEvent: {
      type: 'object',
      required: ['name', 'titleId', 'time'],
      additionalProperties: false,
      properties: {
        name: str(100),
        titleId: hexId(4, 16, 'the title ID of a title the player played'),
        time,
        data: { type: 'object', maxProperties: 50, propertyNames: str(100), additionalProperties: str(1000) },
      },
    },
    playerTemplate: {
      type: 'object',
      required: ['count', 'player'],
      additionalProperties: false,
      properties: {
        count: { type: 'integer', minimum: 1, maximum: MAX_SEED_PLAYERS },
        start: { type: 'integer', minimum: 0, maximum: 1e9 },
        step: { type: 'integer', minimum: 1, maximum: 1e6 },
        player: { $ref: '#/$defs/player' },
      },
    },
    playerTitle: {
      type: 'object',
      additionalProperties: false,
      properties: {
        titlePlayerAccountId: hexId(16, 16, 'a title player account ID'),
        displayName: str(100, 'the player\'s display name in this title, when not the player\'s displayName (GetUserAccountInfo\'s TitleDisplayName)'),
        created: time,
        firstLogin: time,
        lastLogin: time,
        userData: dataEntries,
        userDataVersion: count,
        readOnlyData: dataEntries,
        readOnlyDataVersion: count,
        virtualCurrency: { type: 'object', description: 'Balances by currency code; absent ones start at the title\'s initial amount.', propertyNames: { type: 'string', pattern: '^[A-Z0-9]{2}$' }, additionalProperties: count },
        inventory: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/item' } },
        characters: { type: 'array', maxItems: 100, items: { $ref: '#/$defs/character' } },
        statistics: {
          type: 'object',
          maxProperties: 1000,
          propertyNames: str(100),
          additionalProperties: { type: 'object', required: ['value'], additionalProperties: false, properties: { value: { type: 'integer', minimum: -MAX_COUNT, maximum: MAX_COUNT }, version: count } },
        },
      },
    },
    dataEntry: {
      type: 'object',
      required: ['Value'],
      additionalProperties: false,
      properties: { Value: str(100_000), LastUpdated: time, Permission: { type: 'string', enum: ['Public', 'Private'] } },
    },
    item: {
      type: 'object',
      required: ['ItemId'],
      additionalProperties: false,
      properties: {
        ItemId: str(200),
        ItemInstanceId: hexId(16, 16, 'an item instance ID'),
        ItemClass: str(200),
        DisplayName: str(200),
        PurchaseDate: time,
        RemainingUses: count,
        UnitCurrency: { type: 'string', pattern: '^[A-Z0-9]{2}$' },
        UnitPrice: count,
      },
    },
    character: {
      type: 'object',
      required: ['CharacterName'],
      additionalProperties: false,
      properties: {
        CharacterId: hexId(16, 16, 'a character ID'),
        CharacterName: str(200),
        CharacterType: str(200),
        inventory: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/item' } },
      },
    },
  },
};
