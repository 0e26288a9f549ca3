// The Login Result panel's view model, built from a redacted copy of the result. The
// secrets (entity token, session ticket) only ever leave the host masked.
import type { LoginResult } from '../../core/api/types';
import { redactObject } from '../../core/redact';
import { fitPanel } from './budget';
import type { Block, CopyField, FieldRow, PanelView, RenderMessage } from '../../webview/protocol';
import { cell, extraRows, fieldsOf, isRecord, note, NOT_RETURNED, record, redactStrings, row, section, tableBlock, text } from './viewModel';

export interface LoginResultArgs {
  titleId: string;
  titleName: string;
  result: LoginResult;
}

/** The secrets in a login result, as the host holds them, for Copy and for redaction. */
export function loginSecrets(result: unknown): Partial<Record<CopyField, string>> {
  const r = record(result);
  const secrets: Partial<Record<CopyField, string>> = {};
  const token = record(r?.EntityToken)?.EntityToken;
  if (typeof token === 'string' && token !== '') secrets.EntityToken = token;
  if (typeof r?.SessionTicket === 'string' && r.SessionTicket !== '') secrets.SessionTicket = r.SessionTicket;
  return secrets;
}

function secretList(result: unknown): string[] {
  return Object.values(loginSecrets(result));
}

/** The result as "Open as JSON" shows it: secrets masked wherever they appear. */
export function redactedLoginJson(result: LoginResult): string {
  return JSON.stringify(redactObject(result, secretList(result)), null, 2);
}

function secretRow(label: string, masked: unknown, field: CopyField, hasSecret: boolean): FieldRow {
  const value = text(masked);
  return value !== null && hasSecret ? { label, value, copy: field } : { label, value };
}

function signIn(r: Record<string, unknown>, hasTicket: boolean): Block {
  return section('signIn', 'Sign-in', [{
    kind: 'fields',
    rows: [
      row('NewlyCreated', r.NewlyCreated),
      row('PlatformId', r.PlatformId),
      row('LastLoginTime', r.LastLoginTime),
      secretRow('SessionTicket', r.SessionTicket, 'SessionTicket', hasTicket),
    ],
  }]);
}

function entityToken(v: unknown, hasToken: boolean): Block {
  const t = record(v);
  if (!t) return section('entityToken', 'Entity token', [absent('EntityToken', v)]);
  const entity = record(t.Entity) ?? {};
  return section('entityToken', 'Entity token', [{
    kind: 'fields',
    rows: [
      row('Entity Id', entity.Id),
      row('Entity Type', entity.Type),
      row('Entity TypeString', entity.TypeString),
      ...extraRows(entity, ['Id', 'Type', 'TypeString']).map((f) => ({ ...f, label: `Entity ${f.label}` })),
      row('TokenExpiration', t.TokenExpiration),
      secretRow('EntityToken', t.EntityToken, 'EntityToken', hasToken),
      ...extraRows(t, ['Entity', 'TokenExpiration', 'EntityToken']),
    ],
  }]);
}

function absent(name: string, v: unknown): Block {
  // Present but not an object: show what came, rather than hide it.
  return note(v === undefined || v === null ? `${name}: ${NOT_RETURNED}` : `${name}: ${text(v)}`);
}

function accountInfo(v: unknown): Block {
  const a = record(v);
  if (!a) return section('accountInfo', 'AccountInfo', [absent('AccountInfo', v)]);
  const known = ['PlatformId', 'Created', 'Username', 'TitleInfo'];
  const blocks: Block[] = [{ kind: 'fields', rows: known.slice(0, 3).map((k) => row(k, a[k])) }];
  const ti = record(a.TitleInfo);
  if (ti) {
    const tpa = record(ti.TitlePlayerAccount) ?? {};
    blocks.push(section('accountInfo.titleInfo', 'TitleInfo', [{
      kind: 'fields',
      rows: [
        ...['Origination', 'Created', 'FirstLogin', 'LastLogin'].map((k) => row(k, ti[k])),
        row('TitlePlayerAccount Id', tpa.Id),
        row('TitlePlayerAccount Type', tpa.Type),
        ...extraRows(tpa, ['Id', 'Type']).map((f) => ({ ...f, label: `TitlePlayerAccount ${f.label}` })),
        ...extraRows(ti, ['Origination', 'Created', 'FirstLogin', 'LastLogin', 'TitlePlayerAccount']),
      ],
    }]));
  } else {
    blocks.push(section('accountInfo.titleInfo', 'TitleInfo', [absent('TitleInfo', a.TitleInfo)]));
  }
  // Per-provider info objects (e.g. LauncherInfo): their members are not in the spec, so all are shown.
  const others = Object.keys(a).filter((k) => !known.includes(k));
  const scalars = others.filter((k) => !isRecord(a[k]));
  if (scalars.length > 0) blocks.push({ kind: 'fields', rows: scalars.map((k) => row(k, a[k])) });
  others.filter((k) => isRecord(a[k])).forEach((k, i) => {
    const info = a[k] as Record<string, unknown>;
    blocks.push(section(`accountInfo.provider.${i}`, k, [Object.keys(info).length > 0 ? fieldsOf(info, []) : note('No members.')]));
  });
  return section('accountInfo', 'AccountInfo', blocks);
}

/** Whole US cents as money: "$12.34 (1234 cents)"; anything else as it came. */
function usdFromCents(v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return text(v);
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')} (${v} cents)`;
}

/** A list of records as a table: the given columns first, then any other member seen. */
function recordsTable(caption: string, list: unknown, columns: readonly string[], emptyText: string): Block {
  if (!Array.isArray(list)) return absent(caption, list);
  const seen = new Set(columns);
  for (const x of list) for (const k of Object.keys(record(x) ?? {})) seen.add(k);
  const cols = [...seen];
  const rows = list.map((x: unknown) => {
    const r = record(x);
    return r ? cols.map((c) => cell(r[c])) : [cell(x), ...cols.slice(1).map(() => '—')];
  });
  return tableBlock(caption, cols, rows, emptyText);
}

const PROFILE_LISTS: Record<string, readonly string[]> = {
  Tags: ['TagValue'],
  LinkedAccounts: ['Platform', 'PlatformUserId', 'Username', 'Email'],
  ValuesToDate: ['Currency', 'TotalValue', 'TotalValueAsDecimal'],
  Statistics: ['Name', 'Value', 'Version'],
  Locations: ['CountryCode', 'ContinentCode', 'City'],
  ContactEmailAddresses: ['EmailAddress', 'Name', 'VerificationStatus'],
  Memberships: ['MembershipId', 'IsActive', 'MembershipExpiration'],
  AdCampaignAttributions: ['CampaignId', 'Platform', 'AttributedAt'],
  PushNotificationRegistrations: ['Platform', 'NotificationEndpointARN'],
};

function playerProfile(v: unknown): Block {
  const p = record(v);
  if (!p) return section('playerProfile', 'PlayerProfile', [absent('PlayerProfile', v)]);
  const scalars = ['PlayerId', 'TitleId', 'PublisherId', 'DisplayName', 'Origination', 'Created', 'LastLogin', 'BannedUntil'];
  const lists = [...Object.keys(PROFILE_LISTS), 'ExperimentVariants'];
  const blocks: Block[] = [{
    kind: 'fields',
    rows: [
      ...scalars.map((k) => row(k, p[k])),
      { label: 'TotalValueToDateInUSD', value: usdFromCents(p.TotalValueToDateInUSD) },
      // Shown as text and never loaded: the page loads nothing from outside.
      row('AvatarUrl', p.AvatarUrl),
      ...extraRows(p, [...scalars, 'TotalValueToDateInUSD', 'AvatarUrl', ...lists]),
    ],
  }];
  for (const [name, columns] of Object.entries(PROFILE_LISTS)) {
    if (p[name] !== undefined) blocks.push(recordsTable(name, p[name], columns, `No ${name}.`));
  }
  if (Array.isArray(p.ExperimentVariants)) {
    blocks.push(tableBlock('ExperimentVariants', ['Variant'], p.ExperimentVariants.map((x: unknown) => [cell(x)]), 'No experiment variants.'));
  }
  return section('playerProfile', 'PlayerProfile', blocks);
}

const ITEM_COLUMNS = ['ItemId', 'DisplayName', 'ItemClass', 'RemainingUses', 'UnitPrice', 'UnitCurrency', 'PurchaseDate', 'ItemInstanceId'];

/** The optional parts beyond account, profile, user data and currency, each only when it came. */
function otherParts(info: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  if (info.UserReadOnlyData !== undefined) blocks.push(dataRecords('userReadOnlyData', 'UserReadOnlyData', info.UserReadOnlyData, info.UserReadOnlyDataVersion));
  if (info.UserInventory !== undefined) {
    blocks.push(section('inventory', 'UserInventory', [recordsTable('Items', info.UserInventory, ITEM_COLUMNS, 'No items.')]));
  }
  if (info.CharacterList !== undefined) {
    blocks.push(section('characters', 'CharacterList', [recordsTable('Characters', info.CharacterList, ['CharacterId', 'CharacterName', 'CharacterType'], 'No characters.')]));
  }
  if (info.CharacterInventories !== undefined) {
    const list = Array.isArray(info.CharacterInventories) ? info.CharacterInventories : [];
    const inner = list.map((c: unknown, i: number) => {
      const r = record(c) ?? {};
      return section(`characterInventories.${i}`, `Character ${cell(r.CharacterId)}`, [recordsTable('Items', r.Inventory, ITEM_COLUMNS, 'No items.')]);
    });
    blocks.push(section('characterInventories', 'CharacterInventories', inner.length > 0 ? inner : [note('No character inventories.')]));
  }
  if (info.TitleData !== undefined) {
    const d = record(info.TitleData);
    blocks.push(section('titleData', 'TitleData', [d
      ? tableBlock('', ['Key', 'Value'], Object.entries(d).map(([k, v]) => [k, cell(v)]), 'No title data.')
      : absent('TitleData', info.TitleData)]));
  }
  if (info.PlayerStatistics !== undefined) {
    blocks.push(section('statistics', 'PlayerStatistics', [recordsTable('Statistics', info.PlayerStatistics, ['StatisticName', 'Value', 'Version'], 'No statistics.')]));
  }
  return blocks;
}

function dataRecords(id: string, name: string, v: unknown, version: unknown): Block {
  const d = record(v);
  const blocks: Block[] = [{ kind: 'fields', rows: [row(`${name}Version`, version)] }];
  if (!d) {
    blocks.push(absent(name, v));
  } else {
    const rows = Object.entries(d).map(([key, rec]) => {
      const r = record(rec);
      return r ? [key, cell(r.Value), cell(r.LastUpdated), cell(r.Permission)] : [key, cell(rec), '—', '—'];
    });
    blocks.push(tableBlock('', ['Key', 'Value', 'LastUpdated', 'Permission'], rows, `No ${name === 'UserData' ? 'user data' : 'read-only data'}.`));
  }
  return section(id, name, blocks);
}

function virtualCurrency(info: Record<string, unknown>): Block {
  const balances = record(info.UserVirtualCurrency);
  const recharge = record(info.UserVirtualCurrencyRechargeTimes);
  if (!balances && !recharge) {
    return section('virtualCurrency', 'UserVirtualCurrency', [absent('UserVirtualCurrency', info.UserVirtualCurrency)]);
  }
  const codes = [...new Set([...Object.keys(balances ?? {}), ...Object.keys(recharge ?? {})])];
  const rows = codes.map((code) => {
    const rt = record(recharge?.[code]) ?? {};
    return [code, cell(balances?.[code]), cell(rt.SecondsToRecharge), cell(rt.RechargeTime), cell(rt.RechargeMax)];
  });
  return section('virtualCurrency', 'UserVirtualCurrency', [tableBlock(
    'Balances and recharge times',
    ['Currency', 'Balance', 'SecondsToRecharge', 'RechargeTime', 'RechargeMax'],
    rows,
    'No virtual currency.',
  )]);
}

function infoResultPayload(v: unknown): Block {
  const info = record(v);
  if (!info) {
    return section('info', 'InfoResultPayload', [
      absent('InfoResultPayload', v),
      note('Ask for account info, profile, user data or virtual currency in the login request to see them here.'),
    ]);
  }
  const known = ['AccountInfo', 'PlayerProfile', 'UserData', 'UserDataVersion', 'UserVirtualCurrency', 'UserVirtualCurrencyRechargeTimes',
    'UserReadOnlyData', 'UserReadOnlyDataVersion', 'UserInventory', 'CharacterList', 'CharacterInventories', 'TitleData', 'PlayerStatistics'];
  const blocks = [accountInfo(info.AccountInfo), playerProfile(info.PlayerProfile), dataRecords('userData', 'UserData', info.UserData, info.UserDataVersion), virtualCurrency(info), ...otherParts(info)];
  const extra = extraRows(info, known);
  if (extra.length > 0) blocks.push(section('info.other', 'Other members', [{ kind: 'fields', rows: extra }]));
  return section('info', 'InfoResultPayload', blocks);
}

function settingsForUser(v: unknown): Block {
  const s = record(v);
  if (!s) return section('settings', 'SettingsForUser', [absent('SettingsForUser', v)]);
  return section('settings', 'SettingsForUser', [fieldsOf(s, ['GatherDeviceInfo', 'GatherFocusInfo', 'NeedsAttribution'])]);
}

function treatmentAssignment(v: unknown): Block {
  const t = record(v);
  if (!t) return section('treatment', 'TreatmentAssignment', [absent('TreatmentAssignment', v)]);
  const blocks: Block[] = [];
  if (Array.isArray(t.Variables)) {
    const rows = t.Variables.map((x: unknown) => {
      const r = record(x);
      return r ? [cell(r.Name), cell(r.Value)] : [cell(x), '—'];
    });
    blocks.push(tableBlock('Variables', ['Name', 'Value'], rows, 'No variables.'));
  } else {
    blocks.push(absent('Variables', t.Variables));
  }
  if (Array.isArray(t.Variants)) {
    blocks.push(tableBlock('Variants', ['Variant'], t.Variants.map((x: unknown) => [cell(x)]), 'No variants.'));
  } else {
    blocks.push(absent('Variants', t.Variants));
  }
  const extra = extraRows(t, ['Variables', 'Variants']);
  if (extra.length > 0) blocks.push({ kind: 'fields', rows: extra });
  return section('treatment', 'TreatmentAssignment', blocks);
}

/** The view of a login result; every secret in it masked, the raw result untouched. */
export function buildLoginResultView(args: LoginResultArgs): PanelView {
  const secrets = loginSecrets(args.result);
  const secretValues = Object.values(secrets);
  const r = record(redactObject<unknown>(args.result, secretValues)) ?? {};
  const known = ['NewlyCreated', 'PlatformId', 'LastLoginTime', 'SessionTicket', 'EntityToken',
    'InfoResultPayload', 'SettingsForUser', 'TreatmentAssignment'];
  const blocks = [
    signIn(r, secrets.SessionTicket !== undefined),
    entityToken(r.EntityToken, secrets.EntityToken !== undefined),
    infoResultPayload(r.InfoResultPayload),
    settingsForUser(r.SettingsForUser),
    treatmentAssignment(r.TreatmentAssignment),
  ];
  const extra = extraRows(r, known);
  if (extra.length > 0) blocks.push(section('other', 'Other members', [{ kind: 'fields', rows: extra }]));
  const view: PanelView = {
    kind: 'loginResult',
    heading: 'Login result',
    subheading: `${args.titleName} (${args.titleId})`,
    actions: ['openJson'],
    blocks,
  };
  // Second pass over the finished view, within the panel's budget: a secret echoed anywhere (a
  // user data value, a provider member) and any other token-like value is masked too.
  return redactStrings(fitPanel(view, secretValues), secretValues);
}

export function loginResultMessage(args: LoginResultArgs): RenderMessage {
  return { type: 'render', view: buildLoginResultView(args) };
}
