// The shapes the pad's JavaScript passes around, for `tsc --checkJs` (make lint): the game
// descriptions of GET /api/v1/variants and the hand form's state. Kept here, not in the pad's
// files, so that the phones do not download them. Global: the pad's JSDoc names them directly.

/** A fact of a hand or a table mapped to the values it may take (`shown_when`, `required_when`). */
type Condition = Record<string, any>;

/** One of a game's hand fields (`hand_fields`), with what a form needs of it. */
interface Field {
  name: string;
  type?: string;
  title?: string;
  prompt?: string;
  none_title?: string;
  description?: string;
  required?: boolean;
  nullable?: boolean;
  seat?: boolean;
  min?: number;
  max?: number;
  max_by_deck?: Record<string, number>;
  allowed?: string[];
  fields?: Record<string, any>;
  item_seat?: string;
  default?: any;
  shown_when?: Condition[];
  required_when?: Condition[];
  starts_at?: string;
  not_suit_of?: string;
  own_card_of?: string;
  gives?: string;
}

/** A kind of hand (American Solo: played, forfeit, misdeal). */
interface HandKind {
  name: string;
  title?: string;
  fields: string[];
  deal_passes?: boolean;
  hand_fields?: Field[];
}

interface Contract {
  name: string;
  title?: string;
  target?: number;
  calls_partner?: string;
  called_ranks?: string[];
  option?: string;
  own_card_ranks_as?: string;
}

/** A game as GET /api/v1/variants describes it. */
interface Variant {
  name: string;
  title: string;
  units?: string;
  players: number[];
  suits?: string[];
  tricks?: number;
  contracts?: Contract[];
  hand_fields: Field[];
  hand_kinds?: HandKind[] | null;
  error_kinds?: { name: string; title?: string }[];
  /** A table's options: each with its title, a nullable one's empty choice, and its string
   *  values' titles (`choices`), in the page's language. */
  options?: Option[];
  decks?: { cards: number; tricks: number; target: number }[] | null;
  matadores?: any;
  /** A preview's state keys; `amount_option`: the option saying what a due stake costs. */
  state_fields?: { name: string; amount_option?: string }[];
  /** The league statistics the game has (its standings' and player pages' counters). */
  statistics?: string[];
  /** The suit worth double: its word (a message id), the option naming a fixed one, and the
   *  options with which it becomes the trump of the first game won. */
  doubled_suit?: {
    word: string;
    fixed_option: string | null;
    first_won_when: Record<string, string[]> | null;
  } | null;
}

/** A field of the hand form: its description and the widget that fills it in. */
interface FormField {
  name: string;
  field: Field;
  widget: string;
  title: string;
  more: boolean;
}

type Values = Record<string, any>;

/** The hand form's state: the fields, the values entered so far and the table's facts. */
interface FormState {
  variant: Variant;
  fields: FormField[];
  values: Values;
  players: number;
  options: Record<string, any>;
}

/** What each widget of the hand form gets (hand.js): the form, the table's seats in words,
 *  and how to change the values (each change draws the form again). */
interface FormUi {
  form: FormState;
  table: {
    seats: { seat: number; name: string }[];
    seatName: (seat: number) => string;
    shortName: (seat: number) => string;
  };
  set: (name: string, value: any, byHand?: boolean) => void;
  changed: () => void;
  hint: (f: FormField) => string;
  shown: (f: FormField) => boolean;
  errorKind: (f: FormField, first: string) => string;
  setErrorKind: (f: FormField, kind: string) => void;
}

/** An element with what a screen of the club's (start.js, league.js) adds to it. */
interface HTMLElement {
  [more: string]: any;
}
interface Element {
  [more: string]: any;
}
interface Event {
  [more: string]: any;
}

/** An option of a game (GET /variants), or one a table with a pool has of its own. */
interface Option {
  name: string;
  title?: string;
  type?: string;
  default?: any;
  nullable?: boolean;
  min?: number;
  max?: number;
  allowed?: (string | number)[];
  none_title?: string;
  choices?: { value: string; title: string }[];
  description?: string;
  help?: string;
}
