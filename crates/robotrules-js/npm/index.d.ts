/** The readings: RFC 9309 exactly, Google's (bit for bit with its reference library), the 1994 convention. */
export type Profile = 'rfc9309' | 'google' | 'legacy1994';

/** The profiles, in that order. */
export const PROFILES: readonly Profile[];

export interface ParseOptions {
  /** The reading (default `'rfc9309'`). */
  profile?: Profile;
  /** Bytes past this many are ignored and reported (RFC 9309 §2.5; default 512,000). */
  parseLimit?: number;
}

export interface LintOptions {
  /** The reading (default `'rfc9309'`). */
  profile?: Profile;
}

/** Why a verdict is what it is. */
export type Reason = 'rule-matched' | 'no-matching-rule' | 'no-group' | 'robots-txt-implicitly-allowed';

/** The rule that decided. */
export interface DecidingRule {
  /** 1-based line in the robots.txt. */
  line: number;
  kind: 'allow' | 'disallow';
  /** The pattern as written. */
  pattern: string;
}

/** The CLI's JSON verdict (keys in camelCase). */
export interface Decision {
  allowed: boolean;
  profile: Profile;
  reason: Reason;
  /** Absent when no rule decided. */
  decidedBy?: DecidingRule;
  /** The URL's AI usage preferences: present only when the crawler has `Content-Usage` or `Content-Signal` lines. */
  usage?: Usage;
}

/** A vocabulary of AI usage categories: IETF AIPREF (`Content-Usage`) or Cloudflare's content signals (`Content-Signal`). */
export type Vocabulary = 'aipref' | 'content-signals';

/** A usage category's preference. */
export type Outcome = 'allowed' | 'disallowed' | 'unknown';

/** One category's preference in its vocabulary's terms, and what decided it. */
export interface CategoryUsage {
  /** The label: `'train-ai'`, `'search'` (AIPREF); `'search'`, `'ai-input'`, `'ai-train'` (content signals); or any other label present. */
  label: string;
  outcome: Outcome;
  /** The lines that decided (none for `'unknown'`). */
  lines: number[];
  /** `true` when the HTTP `Content-Usage` header states this outcome; absent otherwise. */
  header?: true;
}

/** One vocabulary's answer for a URL. */
export interface VocabularyUsage {
  vocabulary: Vocabulary;
  /** The lines of the statements that apply (the longest matching path), in file order. */
  applied: number[];
  /** Those of them whose Dictionary does not parse (unknown for every category). */
  unparsed: number[];
  categories: CategoryUsage[];
}

/** A category both vocabularies name, combined most-restrictively (draft-ietf-aipref-vocab-07 §5.1). */
export interface CombinedUsage {
  category: 'train-ai' | 'search';
  outcome: Outcome;
  /** The lines that decided, from both vocabularies, in file order. */
  lines: number[];
  /** `true` when the HTTP `Content-Usage` header decided (or decided too); absent otherwise. */
  header?: true;
}

/** The AI usage preferences of one URL for one crawler (`robotrules usage --format json`'s `usage`, keys in camelCase). */
export interface Usage {
  /** May the crawler crawl the URL? When not, no preference applies and the lists are empty (draft-ietf-aipref-attach-05 §3.1). */
  crawlable: boolean;
  /** `'aipref'`, then `'content-signals'`, when crawlable. */
  vocabularies: VocabularyUsage[];
  /** `'train-ai'`, then `'search'`, when crawlable. */
  combined: CombinedUsage[];
}

export interface UsageOptions {
  /** The URL's HTTP `Content-Usage` response header (draft-ietf-aipref-attach-05 §2), combined as one more statement. */
  header?: string | Uint8Array | ArrayBuffer | ArrayBufferView;
}

/** A member of a statement's RFC 9651 Dictionary: a Token, a Boolean, or another type by name. */
export interface UsageMember {
  label: string;
  value: { token: string } | { boolean: boolean } | { other: string };
}

/** One `Content-Usage` or `Content-Signal` line as the crawler reads it (as `robotrules show` lists it). */
export interface UsageStatement {
  line: number;
  key: 'content-usage' | 'content-signal';
  vocabulary: Vocabulary;
  /** The first line of its group; absent outside any group (a file-wide signal, for every crawler). */
  groupLine?: number;
  /** The path as written, when there is one. */
  path?: string;
  /** The statement of preference as written. */
  preference: string;
  /** The Dictionary's members, when it parses. */
  members?: UsageMember[];
  /** Where it stops parsing, when it does not (every category unknown). */
  error?: { offset: number; message: string };
}

/** A file-wide record's line and value, as written. */
export interface FileRecord {
  line: number;
  value: string;
}

/** A parser finding. */
export interface Diagnostic {
  /** Stable code: `'misspelt-key'`, `'rule-outside-group'`, … */
  code: string;
  severity: 'error' | 'warning' | 'note';
  /** 1-based line where it starts. */
  line: number;
  /** Byte offset where it starts. */
  start: number;
  /** Byte offset one past where it ends. */
  end: number;
  message: string;
}

/** An extension record (`crawl-delay`, `request-rate`, `host`, …). */
export interface ExtensionRecord {
  /** The key, lower-cased. */
  key: string;
  /** The value as written. */
  value: string;
  line: number;
}

export interface RequestRate {
  requests: number;
  seconds: number;
}

/** The library's full account of a verdict (`robotrules check --explain --format json`, keys in camelCase). */
export interface Explanation {
  allowed: boolean;
  reason: Reason;
  decidedBy?: DecidingRule & Record<string, unknown>;
  matches: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** A lint report (`robotrules lint --format json`, keys in camelCase). */
export interface LintReport {
  findings: Array<{ code: string; severity: string; line: number; message: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

/** A parsed robots.txt file (immutable). Free it with `free()` or `using`; otherwise the garbage collector does. */
export class Robots {
  private constructor();
  /** Parse a body (a string, or bytes). Never throws on content. Throws `RangeError` for an unknown profile. */
  static parse(body: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: ParseOptions): Robots;
  readonly profile: Profile;
  /** The groups for crawler `agent`, resolved once. Throws `InvalidAgent`. */
  crawler(agent: string): Crawler;
  /** The crawler a foreign library's user agent or a full User-Agent header stands for: its product token, else `*`. Never throws on content. */
  crawlerFor(userAgent: string | null | undefined): Crawler;
  /** The crawler name `crawlerFor(userAgent)` asks about. */
  crawlerNameFor(userAgent: string | null | undefined): string;
  /** What the profile reads of a name no group can name as it is (`google`: `MJ12bot` → `MJ`), or `null`. */
  nameReading(agent: string): NameReading | null;
  /** Throws `InvalidAgent` or `InvalidUrl`. */
  isAllowed(agent: string, url: string): boolean;
  decide(agent: string, url: string): Decision;
  explain(agent: string, url: string): Explanation;
  /** `crawler(agent).usage(url, options)`. Throws `InvalidAgent` or `InvalidUrl`. */
  usage(agent: string, url: string, options?: UsageOptions): Usage;
  crawlDelay(agent: string): number | null;
  requestRate(agent: string): RequestRate | null;
  readonly sitemaps: string[];
  sitemapsFrom(base: string): string[];
  /** `License:` URLs as written (RSL 1.0). */
  readonly licenses: string[];
  licensesFrom(base: string): string[];
  /** `LLM-Policy:` URLs as written. */
  readonly llmPolicies: string[];
  llmPoliciesFrom(base: string): string[];
  /** `Content-Signal:` lines outside any group (for every crawler). */
  readonly fileSignals: FileRecord[];
  readonly diagnostics: Diagnostic[];
  readonly fileExtensions: ExtensionRecord[];
  readonly bytesRead: number;
  free(): void;
  [Symbol.dispose](): void;
}

/** One crawler's rules in a parsed file, resolved once. */
export class Crawler {
  private constructor();
  readonly name: string;
  readonly selection: 'exact' | 'substring' | 'global' | 'unmatched';
  /** Throws `InvalidUrl`. */
  isAllowed(url: string): boolean;
  /** One verdict per URL, in order. Throws `InvalidUrl` for the first URL refused. */
  allowedMany(urls: Iterable<string>): boolean[];
  decide(url: string): Decision;
  explain(url: string): Explanation;
  /** The AI usage preferences of `url`, with the deciding lines. Throws `InvalidUrl`. */
  usage(url: string, options?: UsageOptions): Usage;
  /** The crawler's `Content-Usage` and `Content-Signal` lines, in file order. */
  readonly usageStatements: UsageStatement[];
  /** Seconds, or `null`. */
  readonly crawlDelay: number | null;
  readonly requestRate: RequestRate | null;
  readonly visitTimes: string[];
  readonly extensions: ExtensionRecord[];
  free(): void;
  [Symbol.dispose](): void;
}

/** A crawler name the profile does not answer for (RFC 9309 §2.2.1: a product token). */
export class InvalidAgent extends Error {
  readonly name: 'InvalidAgent';
  /** The name given. */
  readonly agent: string;
  /** The product token to pass instead, or `null`. */
  readonly suggestion: string | null;
}

/** A URL the profile cannot read. */
export class InvalidUrl extends Error {
  readonly name: 'InvalidUrl';
  /** The URL given. */
  readonly url: string;
}

export function lint(body: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: LintOptions): LintReport;
/** The crawler's product token in a full User-Agent header, or `null`. */
export function crawlerToken(userAgent: string): string | null;
/** What a profile reads of a crawler name that no group can name as it is. */
export interface NameReading {
  name: string;
  /** What the profile reads of a `user-agent` line that gives the name. */
  reads: string;
  /** The name to pass instead. */
  token: string | null;
  /** The warning, in one sentence (the CLI's). */
  message: string;
}
/** Does the robots.txt at `robotsTxtUrl` govern `url` (RFC 9309 §2.3)? Throws `InvalidUrl`. */
export function governs(robotsTxtUrl: string, url: string): boolean;
/** What an HTTP status makes of a robots.txt (RFC 9309 §2.3.1). */
export type StatusAccess = 'success' | 'redirect' | 'unavailable' | 'unreachable';
/** How `statusAccess` reads a status. */
export interface StatusOptions {
  /** Whether the response names a redirect target (a `Location` header). */
  hasLocation?: boolean;
  /** How 429 is read: `'unreachable'` (every path disallowed, the default) or `'unavailable'`. */
  tooManyRequests?: 'unreachable' | 'unavailable';
}
/** What an HTTP status makes of a robots.txt (RFC 9309 §2.3.1), as the Rust fetch client reads it. */
export function statusAccess(status: number, options?: StatusOptions): StatusAccess;
/** The WebAssembly memory's size in bytes (it grows, never shrinks). */
export function memoryBytes(): number;
/** Loads the WebAssembly (browsers, edge runtimes; a no-op on Node.js). */
export function init(input?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Loads the WebAssembly synchronously (a no-op on Node.js). */
export function initSync(options: { module: BufferSource | WebAssembly.Module }): void;
