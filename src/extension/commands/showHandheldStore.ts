// Show HandheldStore Configuration: opens the panel, which loads (and reloads) it live and
// writes what it read to the shared add-on states, so the Titles view shows it without a read of its own.
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { showHandheldStore as openPanel } from '../views/handheldStorePanel';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

export async function showHandheldStore(c: CommandContext, target: Target): Promise<void> {
  const s = c.services;
  // Fails here, with the usual message, when the key must not or cannot be sent.
  const { title } = await usableTitle(c, target);
  // Awaited: Activity records the first load's outcome and the time it took.
  await openPanel(s, {
    titleId: title.titleId,
    titleName: title.name,
    load: async () => {
      const config = await (await s.clients.get(title.titleId)).getHandheldStore();
      s.addonStates.set(title.titleId, 'HandheldStore', config.Created ? 'present' : 'absent');
      return config;
    },
  });
}

export const showHandheldStoreCommand = defineCommand({
  id: 'platformExplorer.showHandheldStore',
  title: 'Show HandheldStore Configuration',
  category: true,
  icon: 'preview',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhandheldStore\\b/', group: 'inline@1' },
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bhandheldStore\\b/', group: '1_addon@1' },
    ],
  },
  lazy: 'panels',
  operations: ['GetHandheldStore'],
  parse: parseTarget,
  handler: showHandheldStore,
});
