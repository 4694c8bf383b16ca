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
  /** Throws `InvalidAgent` or `InvalidUrl`. */
  isAllowed(agent: string, url: string): boolean;
  decide(agent: string, url: string): Decision;
  explain(agent: string, url: string): Explanation;
  crawlDelay(agent: string): number | null;
  requestRate(agent: string): RequestRate | null;
  readonly sitemaps: string[];
  sitemapsFrom(base: string): string[];
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
/** The WebAssembly memory's size in bytes (it grows, never shrinks). */
export function memoryBytes(): number;
/** Loads the WebAssembly (browsers, edge runtimes; a no-op on Node.js). */
export function init(input?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Loads the WebAssembly synchronously (a no-op on Node.js). */
export function initSync(options: { module: BufferSource | WebAssembly.Module }): void;
