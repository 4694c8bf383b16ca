/** robots-parser's `Robot`, on the robotrules engine. */
export interface Robot {
  /** `undefined` for a URL of another origin. */
  isAllowed(url: string, ua?: string): boolean | undefined;
  /** `true` for a URL of another origin (robots-parser's answer). */
  isDisallowed(url: string, ua?: string): boolean;
  /** `true` when a group naming `ua` itself disallows `url`; `undefined` for another origin. */
  isExplicitlyDisallowed(url: string, ua: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
  /** Frees the WebAssembly memory now. */
  free(): void;
}

export interface RobotsParserOptions {
  /** The reading (default `'google'`, the closest to robots-parser's). */
  profile?: 'rfc9309' | 'google' | 'legacy1994';
}

export default function robotsParser(url: string, robotstxt: string | null | undefined, options?: RobotsParserOptions): Robot;
