// `robotrules/crawlee`: makes a Crawlee crawler fail closed on robots.txt, as RFC 9309 §2.3.1
// says, where Crawlee fails open (any error fetching robots.txt, a 5xx or a refused connection
// included, means "crawl everything" there). `build.mjs` wraps this file's body as CommonJS and
// as ESM around the package's API `api`.

function crawleeAdapterOf(api) {
	'use strict';

	const DAY = 24 * 60 * 60 * 1000;

	/**
	 * robots.txt per origin, fetched once and kept: `available` (2xx: its rules apply),
	 * `unavailable` (4xx: everything allowed, RFC 9309 §2.3.1.3) or `unreachable` (5xx, 429 by
	 * default, a network error, a timeout: everything disallowed, RFC 9309 §2.3.1.4), as the
	 * engine's status table (`statusAccess`) reads the status.
	 */
	class RobotsCache {
		constructor(options = {}) {
			this.userAgent = options.userAgent || '*';
			this.profile = options.profile || 'google';
			this.timeoutMillis = options.timeoutMillis ?? 10_000;
			this.ttlMillis = options.ttlMillis ?? DAY;
			this.unreachableTtlMillis = options.unreachableTtlMillis ?? 60_000;
			this.fetch = options.fetch || globalThis.fetch;
			this.tooManyRequests = options.tooManyRequests ?? 'unreachable';
			// An unknown reading of 429 is a RangeError now, not a failed fetch later.
			api.statusAccess(429, { tooManyRequests: this.tooManyRequests });
			// An unknown profile is a RangeError now, not a failed fetch later.
			api.Robots.parse('', { profile: this.profile }).free();
			this.entries = new Map();
			this.nextVisit = new Map();
		}

		/** The robots.txt entry of `url`'s origin, fetched when missing or stale. */
		entry(url) {
			const origin = new URL(url).origin;
			const now = Date.now();
			const kept = this.entries.get(origin);
			if (kept !== undefined && kept.expires > now) return kept.promise;
			const promise = this.#load(origin);
			const record = { promise, expires: Infinity };
			this.entries.set(origin, record);
			// A replaced entry is not freed here: a request may still be asking it. The garbage
			// collector frees it.
			promise.then((entry) => {
				record.expires = Date.now() + (entry.access === 'unreachable' ? this.unreachableTtlMillis : this.ttlMillis);
			});
			return promise;
		}

		async #load(origin) {
			const robotsTxtUrl = `${origin}/robots.txt`;
			const entry = { robotsTxtUrl, access: 'unreachable', status: null, reason: '', robots: null, crawler: null };
			entry.free = () => {
				if (entry.crawler) entry.crawler.free();
				if (entry.robots) entry.robots.free();
			};
			let response;
			try {
				response = await this.fetch(robotsTxtUrl, {
					redirect: 'follow',
					signal: AbortSignal.timeout(this.timeoutMillis),
					headers: this.userAgent === '*' ? {} : { 'user-agent': this.userAgent }
				});
				entry.status = response.status;
				// fetch followed the redirects it could: a 3xx left here has no target to follow.
				const access = api.statusAccess(response.status, { tooManyRequests: this.tooManyRequests });
				if (access === 'success') {
					const body = new Uint8Array(await response.arrayBuffer());
					entry.access = 'available';
					entry.robots = api.Robots.parse(body, { profile: this.profile });
					entry.crawler = entry.robots.crawlerFor(this.userAgent);
					return entry;
				}
				if (response.body) await response.body.cancel();
				// 'unavailable': every path allowed (RFC 9309 §2.3.1.3); 'unreachable' (5xx, and 429
				// unless `tooManyRequests` is 'unavailable'): every path disallowed (§2.3.1.4).
				if (access === 'unavailable') entry.access = 'unavailable';
				else entry.reason = `HTTP ${response.status}`;
			} catch (error) {
				entry.reason = String(error && (error.cause?.code || error.name || error.message));
			}
			return entry;
		}

		/** May the crawler fetch `url`? A robots.txt that cannot be reached disallows everything. */
		async isAllowed(url) {
			let entry;
			try {
				entry = await this.entry(url);
			} catch (error) {
				return false;
			}
			return verdict(entry, url);
		}

		/** The crawl delay for `url`'s origin in seconds, or `null`. */
		async crawlDelay(url) {
			const entry = await this.entry(url);
			return entry.crawler ? entry.crawler.crawlDelay : null;
		}

		/** Waits until the crawl delay of `url`'s origin has passed since the last visit it allowed. */
		async waitForTurn(url) {
			const delay = await this.crawlDelay(url);
			if (!delay) return;
			const origin = new URL(url).origin;
			const at = Math.max(Date.now(), this.nextVisit.get(origin) ?? 0);
			this.nextVisit.set(origin, at + delay * 1000);
			const wait = at - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
		}

		/** Frees every parsed file. */
		clear() {
			for (const record of this.entries.values()) record.promise.then((entry) => entry.free());
			this.entries.clear();
		}
	}

	/** Whether the entry's robots.txt governs `url` (the engine's `governs`, RFC 9309 §2.3). */
	function governed(entry, url) {
		try {
			return api.governs(entry.robotsTxtUrl, url);
		} catch (error) {
			return false;
		}
	}

	function verdict(entry, url) {
		if (entry.access === 'unavailable') return true;
		if (entry.access !== 'available') return false;
		try {
			return entry.crawler.isAllowed(url);
		} catch (error) {
			return false;
		}
	}

	/**
	 * Makes a Crawlee crawler (`BasicCrawler` and its subclasses) read robots.txt through a
	 * fail-closed `RobotsCache`: a 5xx, a network error or a timeout disallows the origin, a 4xx
	 * allows it, a 2xx's rules apply (profile `options.profile`, default `google`), with the
	 * crawler named by `options.userAgent` (or Crawlee's `respectRobotsTxtFile.userAgent`, or
	 * `*`), each origin fetched once (kept 24 hours, an unreachable one 60 seconds), and each
	 * origin's crawl-delay honoured between the crawler's requests there. Returns the cache.
	 */
	function failClosed(crawler, options = {}) {
		const fromCrawlee = typeof crawler.respectRobotsTxtFile === 'object' ? crawler.respectRobotsTxtFile.userAgent : undefined;
		const cache = new RobotsCache({ ...options, userAgent: options.userAgent || fromCrawlee });
		crawler.isAllowedBasedOnRobotsTxtFile = (url) => cache.isAllowed(url);
		crawler.getRobotsTxtFileForUrl = async (url) => {
			let entry;
			try {
				entry = await cache.entry(url);
			} catch (error) {
				return undefined;
			}
			return {
				url: entry.robotsTxtUrl,
				isAllowed: (page) => (governed(entry, page) ? verdict(entry, page) : false),
				getSitemaps: () => (entry.robots ? entry.robots.sitemapsFrom(entry.robotsTxtUrl) : [])
			};
		};
		if (Array.isArray(crawler.preNavigationHooks)) {
			crawler.preNavigationHooks.push(async ({ request }) => cache.waitForTurn(request.url));
		}
		return cache;
	}

	return { failClosed, RobotsCache };
}
