// The outbox: every new hand is written here first, with its Idempotency-Key and the number it
// should get (expected_number), then sent. A hand leaves the outbox only when the server has
// recorded it (201, or the replay of a first 201), so it is never lost; the key makes a retry
// record it once, so it is never doubled. A hand whose number someone else took waits, with both
// versions, until a person decides.

import { api, NetworkError } from './api.js';
import { randomKey } from './dom.js';
import { fieldNamed, fieldTitle } from './hand-fields.js';
import { store } from './store.js';

const listeners = new Set();
let flushing = null;

export function onOutboxChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed(detail) {
  for (const fn of listeners) fn(detail);
}

export function entriesFor(tableId) {
  return store.outbox().filter((e) => e.table === tableId).sort((a, b) => a.number - b.number);
}

/** Queue a hand for table `tableId` as hand `number`; resolves once it is stored on the phone. */
export function enqueue(tableId, number, body) {
  const entry = { key: randomKey(), table: tableId, number, body, at: new Date().toISOString(),
    state: 'queued' };
  store.saveOutbox([...store.outbox(), entry]);
  changed({ entry });
  return entry;
}

function update(key, patch) {
  const entries = store.outbox();
  const i = entries.findIndex((e) => e.key === key);
  if (i < 0) return null;
  entries[i] = patch === null ? null : { ...entries[i], ...patch };
  store.saveOutbox(entries.filter(Boolean));
  return entries[i];
}

export function discard(key) {
  update(key, null);
  changed({});
}

/** Keep a conflicting hand as well: it and the later queued hands of its table move on to the
 *  table's next numbers, each with a new key (the body changes with its number). */
export function renumber(key, nextNumber) {
  const entries = store.outbox();
  const entry = entries.find((e) => e.key === key);
  if (!entry) return;
  let number = nextNumber;
  for (const e of entries.filter((x) => x.table === entry.table && x.number >= entry.number)
    .sort((a, b) => a.number - b.number)) {
    Object.assign(e, { number, key: randomKey(), state: 'queued', problem: null, theirs: null });
    number += 1;
  }
  store.saveOutbox(entries);
  changed({});
}

/** Send what waits, table by table and in number order; one flush at a time. Resolves to
 *  'offline' when the network failed, else 'done'. */
export function flush(tokenFor, onRecorded) {
  if (!flushing) {
    flushing = sendAll(tokenFor, onRecorded).finally(() => { flushing = null; });
  }
  return flushing;
}

async function sendAll(tokenFor, onRecorded) {
  const blocked = new Set();
  for (;;) {
    const waiting = store.outbox().filter((e) => !blocked.has(e.table));
    if (!waiting.length) return 'done';
    const { table } = waiting.reduce((a, b) => (a.at <= b.at ? a : b));
    const next = waiting.filter((e) => e.table === table)
      .reduce((a, b) => (a.number <= b.number ? a : b));
    if (next.state === 'conflict' || next.state === 'failed') {
      blocked.add(next.table);
      continue;
    }
    const outcome = await send(next, tokenFor(next.table), onRecorded);
    if (outcome === 'offline') return 'offline';
    if (outcome !== 'sent') blocked.add(next.table);
  }
}

/** A refused hand's problem in words, each field by its title in the description of its
 *  table's game as this phone keeps it ("Declarer: …", "Alleinspieler: …"; not the API's
 *  "declarer"), in the page's language. */
function refusal(error, tableId) {
  const known = store.table(tableId);
  const variant = (store.variants() || []).find((v) => known && v.name === known.variant);
  return error.lines((name) => {
    const field = fieldNamed(variant || null, name);
    return field ? fieldTitle(field) : null;
  });
}

async function send(entry, token, onRecorded) {
  update(entry.key, { state: 'sending' });
  changed({ entry });
  try {
    const { data } = await api.record(entry.table, token,
      { ...entry.body, expected_number: entry.number }, entry.key);
    update(entry.key, null);
    onRecorded(entry, data);
    changed({ recorded: data, entry });
    return 'sent';
  } catch (error) {
    if (error instanceof NetworkError || error.status >= 500 || error.status === 429) {
      update(entry.key, { state: 'queued' });
      changed({ entry });
      return 'offline';
    }
    const patch = { state: 'failed', problem: refusal(error, entry.table) };
    if (error.status === 409) {
      try {
        const { data: table } = await api.table(entry.table, token);
        if (table.status === 'open' && table.next_number > entry.number) {
          const { data: theirs } = await api.hand(entry.table, token, entry.number);
          Object.assign(patch, { state: 'conflict', theirs, next: table.next_number });
        }
      } catch (lookup) {
        if (lookup instanceof NetworkError) {
          update(entry.key, { state: 'queued' });
          return 'offline';
        }
      }
    }
    update(entry.key, patch);
    changed({ entry });
    return patch.state;
  }
}
