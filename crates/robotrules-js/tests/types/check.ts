// Type-checked (never run) by types.test.mjs with `tsc --noEmit --strict`: the package's
// declarations describe the API as the tests use it.
import { Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, PROFILES, init, type Decision, type Profile, type Usage, type UsageStatement, type Outcome, type FileRecord } from 'robotrules';
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
const usage: Usage = crawler.usage('/', { header: 'train-ai=n' });
const trainAi: Outcome | undefined = usage.combined.find((c) => c.category === 'train-ai')?.outcome;
const deciding: number[] = usage.vocabularies.flatMap((v) => v.categories.flatMap((c) => c.lines));
const fromHeader: boolean = usage.combined.some((c) => c.header === true);
const usedToo: boolean | undefined = decision.usage?.crawlable;
const agentUsage: Usage = robots.usage('ExampleBot', '/', { header: new Uint8Array([116]) });
const statements: UsageStatement[] = crawler.usageStatements;
const groupLine: number | undefined = statements[0]?.groupLine;
const licenses: string[] = robots.licenses.concat(robots.licensesFrom('https://example.com/robots.txt'));
const policies: string[] = robots.llmPolicies.concat(robots.llmPoliciesFrom('https://example.com/robots.txt'));
const signals: FileRecord[] = robots.fileSignals;
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

export const used = [usage, trainAi, deciding, fromHeader, usedToo, agentUsage, groupLine, licenses, policies, signals, allowed, many, line, delay, perSecond, codes, findings, token, maybe, explicit, lineNumber, host, entry];
