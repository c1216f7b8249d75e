// What the pad knows of each variant's hand record when GET /api/v1/variants says less
// (the answer always names contracts and options; hand kinds, hand fields, error kinds and
// matadores only where the service includes them). The service's word wins, key by key.

const SUITS = ['clubs', 'spades', 'hearts', 'diamonds'];
const seat = (name, extra = {}) => ({ name, type: 'integer', min: 0, required: true, ...extra });
const flag = (name) => ({ name, type: 'boolean' });
const played = { name: 'kind', type: 'string', allowed: ['played'] };
const revoke = [{ name: 'revoke', description: 'the offender’s side loses the game' }];
const partnerGame = (ranks) => [
  { name: 'contract', type: 'string', required: true },
  { name: 'trump', type: 'string', required: true, allowed: SUITS },
  seat('declarer'),
  { name: 'called', type: 'object', nullable: true, fields: { rank: ranks, suit: SUITS } },
  seat('partner', { required: false, nullable: true }),
  { name: 'tricks', type: 'integer', min: 0, max: 8, required: true },
];

const KNOWN = {
  american: {
    suits: SUITS,
    tricks: 8,
    hand_kinds: [
      { name: 'played', fields: ['contract', 'trump', 'declarer', 'tricks', 'called', 'partner', 'tout_after_five', 'matadores', 'errors'] },
      { name: 'forfeit', fields: ['seat'] },
      { name: 'misdeal', fields: [] },
    ],
    error_kinds: ['revoke', 'lead_out_of_turn', 'play_out_of_turn', 'exposed_card', 'unannounced_void'].map((name) => ({ name })),
    called_ranks: ['ace', 'king'],
    matadores: {
      sides: ['declarers', 'defenders'],
      max_lower: Object.fromEntries([3, 4, 5].map((n) => [String(n), Object.fromEntries(SUITS.map((s, i) => [s, (i < 2 ? 6 : 7) + (n === 5 ? 2 : 0)]))])),
    },
  },
  spanish: {
    suits: SUITS,
    hand_fields: [played, ...partnerGame(['ace']), flag('forced'), { name: 'errors', type: 'array' }],
    error_kinds: revoke,
  },
  german: {
    suits: SUITS,
    hand_fields: [played, ...partnerGame(['ace', 'king']), flag('stopped_after_five'), flag('continued_after_five'),
      flag('tout_announced'), flag('matadors_together'), { name: 'errors', type: 'array' }],
    error_kinds: revoke,
  },
  solo66: {
    suits: SUITS,
    hand_fields: [played,
      { name: 'trump', type: 'string', required: true, nullable: true, allowed: SUITS },
      seat('soloist', { required: false, nullable: true }),
      { name: 'soloist_points', type: 'integer', min: 0, max: 134, nullable: true },
      { name: 'defender_points', type: 'integer', min: 0, max: 134, nullable: true },
      seat('last_trick', { required: false, nullable: true })],
    error_kinds: [],
  },
};

/** The variant as the service describes it, completed with what the pad knows of it. */
export function complete(variant) {
  const known = KNOWN[variant.name] || {};
  const out = { ...known, ...variant };
  for (const key of Object.keys(variant)) if (variant[key] === undefined) out[key] = known[key];
  return out;
}
