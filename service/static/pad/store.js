// What this phone remembers (localStorage): clubs with their admin tokens, tables with their
// table tokens, the last copy of each table (to show it offline) and the outbox of hands
// waiting to be sent.

import { read, STORE_PREFIX as PREFIX } from './boot.js';
import { lang } from './i18n.js';

function write(key, value) {
  if (value === undefined) localStorage.removeItem(PREFIX + key);
  else localStorage.setItem(PREFIX + key, JSON.stringify(value));
}

export const store = {
  clubs: () => read('clubs', {}),
  saveClub(club) {
    const clubs = store.clubs();
    clubs[club.id] = { ...clubs[club.id], ...club };
    write('clubs', clubs);
    write('club', club.id);
  },
  currentClub() {
    const clubs = store.clubs();
    return clubs[read('club', '')] || Object.values(clubs)[0] || null;
  },
  useClub: (id) => write('club', id),
  forgetClub(id) {
    const clubs = store.clubs();
    delete clubs[id];
    write('clubs', clubs);
  },

  tables: () => read('tables', {}),
  table: (id) => store.tables()[id] || null,
  saveTable(entry) {
    const tables = store.tables();
    tables[entry.id] = { ...tables[entry.id], ...entry, seen: Date.now() };
    write('tables', tables);
  },
  forgetTable(id) {
    const tables = store.tables();
    delete tables[id];
    write('tables', tables);
    write(`cache:${id}`, undefined);
  },

  cache: (id) => read(`cache:${id}`, null),
  saveCache: (id, value) => {
    try { write(`cache:${id}`, value); } catch { /* full: the copy is only a convenience */ }
  },

  // The games as the API words them, kept per language (a switch offline shows its own words).
  variants: () => read(`variants:${lang}`, null),
  saveVariants: (list) => write(`variants:${lang}`, list),

  // What a form holds until it is saved or discarded (a reload, a locked phone keeps it).
  draft: (key) => read(`draft:${key}`, null),
  saveDraft: (key, value) => {
    try { write(`draft:${key}`, value); } catch { /* full: a draft is only a convenience */ }
  },
  dropDraft: (key) => write(`draft:${key}`, undefined),

  // The player's choices (how the score sheet is shown).
  pref: (key, fallback) => ({ ...fallback, ...read(`pref:${key}`, {}) }),
  savePref: (key, value) => write(`pref:${key}`, value),

  outbox: () => read('outbox', []),
  saveOutbox: (entries) => write('outbox', entries),
};
