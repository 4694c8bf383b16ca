// Type-checked (never run) by types.test.mjs with `tsc --noEmit --strict`: the package's
// declarations describe the API as the tests use it.
import { Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, PROFILES, init, type Decision, type Profile } from 'robotrules';
import robotsParser from 'robotrules/robots-parser';
import { failClosed, RobotsCache, type RobotsEntry } from 'robotrules/crawlee';

const profile: Profile = PROFILES[1];
const robots: Robots = Robots.parse(new Uint8Array([117]), { profile, parseLimit: 1000 });
const crawler: Crawler = robots.crawler('ExampleBot');
const allowed: boolean = crawler.isAllowed('/');
const many: boolean[] = crawler.allowedMany(new Set(['/a', '/b']));
const decision: Decision = crawler.decide('/');
const line: number | undefined = decision.decidedBy?.line;
const delay: number | null = crawler.crawlDelay;
const rate = crawler.requestRate;
const perSecond: number | undefined = rate?.requests;
const codes: string[] = robots.diagnostics.map((d) => d.code);
const findings: number = lint('user-agent: *', { profile: 'google' }).findings.length;
const token: string | null = crawlerToken('Mozilla/5.0 (compatible; ExampleBot/1.0)');
try {
  robots.isAllowed('Bot/1.0', '/');
} catch (error) {
  if (error instanceof InvalidAgent) console.log(error.suggestion?.toUpperCase(), error.agent);
  if (error instanceof InvalidUrl) console.log(error.url);
}
crawler[Symbol.dispose]();
robots.free();
void init();

const parser = robotsParser('https://example.com/robots.txt', 'User-agent: *', { profile: 'rfc9309' });
const maybe: boolean | undefined = parser.isAllowed('https://example.com/', 'Bot/1.0');
const explicit: boolean | undefined = parser.isExplicitlyDisallowed('https://example.com/', 'Bot');
const lineNumber: number = parser.getMatchingLineNumber('https://example.com/');
const host: string | null = parser.getPreferredHost();

const cache: RobotsCache = failClosed({}, { userAgent: 'ExampleBot', timeoutMillis: 5000 });
const entry: Promise<RobotsEntry> = cache.entry('https://example.com/');

export const used = [allowed, many, line, delay, perSecond, codes, findings, token, maybe, explicit, lineNumber, host, entry];
