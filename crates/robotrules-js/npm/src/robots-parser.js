// `robotrules/robots-parser`: the factory and methods of npm's `robots-parser` (3.0.1, and
// `isExplicitlyDisallowed` as its main branch defines it) on the robotrules engine.
// `build.mjs` wraps this file's body as CommonJS and as ESM around the package's API `api`.

function robotsParserOf(api) {
	'use strict';

	// robots-parser reads a relative URL against a base of its own, so that a relative
	// robots.txt URL and relative page URLs share one (made-up) origin.
	const RELATIVE_BASE = 'http://robots-relative.invalid/';
	const DEFAULT_PORTS = { 'http:': '80', 'https:': '443', 'ftp:': '21' };
	// How many crawlers one parsed file keeps resolved (by the User-Agent given).
	const KEPT = 16;

	function parseUrl(url) {
		try {
			const parsed = new URL(url, RELATIVE_BASE);
			return {
				protocol: parsed.protocol,
				hostname: parsed.hostname,
				port: parsed.port || DEFAULT_PORTS[parsed.protocol] || '',
				// Percent-encodings upper-cased, as robots-parser reads a URL (RFC 3986 §6.2.2.1).
				path: (parsed.pathname + parsed.search).replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
			};
		} catch (e) {
			return null;
		}
	}

	/** The crawler name the engine is asked about for robots-parser's `ua` argument. */
	function crawlerName(ua) {
		if (!ua) return '*';
		const agent = String(ua);
		return api.crawlerToken(agent) || agent;
	}

	/**
	 * A parsed robots.txt for `url`, read under `options.profile` (`'google'` by default,
	 * the reading closest to robots-parser's).
	 */
	function Robots(url, contents, options) {
		this._url = parseUrl(url);
		const profile = options && options.profile !== undefined ? options.profile : 'google';
		this._robots = api.Robots.parse(contents == null ? '' : String(contents), { profile });
		this._crawlers = new Map();
	}

	/** The engine's crawler for `ua`: the crawler's token; a name it refuses, its suggestion or `*`. */
	Robots.prototype._crawler = function (ua) {
		const name = crawlerName(ua);
		let crawler = this._crawlers.get(name);
		if (crawler !== undefined) return crawler;
		try {
			crawler = this._robots.crawler(name);
		} catch (error) {
			if (!(error instanceof api.InvalidAgent)) throw error;
			crawler = this._robots.crawler(error.suggestion || '*');
		}
		if (this._crawlers.size >= KEPT) {
			for (const kept of this._crawlers.values()) kept.free();
			this._crawlers.clear();
		}
		this._crawlers.set(name, crawler);
		return crawler;
	};

	/** The path and query of `url`, or `undefined` when this robots.txt does not govern it. */
	Robots.prototype._path = function (url) {
		const parsed = parseUrl(url);
		const own = this._url;
		if (parsed === null || own === null || parsed.protocol !== own.protocol ||
			parsed.hostname !== own.hostname || parsed.port !== own.port) {
			return undefined;
		}
		return parsed.path;
	};

	/** The engine's decision, or `undefined` for a URL this robots.txt does not govern. */
	Robots.prototype._decide = function (url, ua) {
		const path = this._path(url);
		if (path === undefined) return undefined;
		return this._crawler(ua).decide(path);
	};

	/** `true` if allowed, `false` if not, `undefined` for a URL of another origin. */
	Robots.prototype.isAllowed = function (url, ua) {
		const path = this._path(url);
		if (path === undefined) return undefined;
		return this._crawler(ua).isAllowed(path);
	};

	/** `!isAllowed(url, ua)`: `true` for a URL of another origin, as robots-parser answers. */
	Robots.prototype.isDisallowed = function (url, ua) {
		return !this.isAllowed(url, ua);
	};

	/**
	 * `true` when a group naming `ua` itself disallows `url` (the `*` group does not count,
	 * unless `ua` is left out); `undefined` for a URL of another origin.
	 */
	Robots.prototype.isExplicitlyDisallowed = function (url, ua) {
		const path = this._path(url);
		if (path === undefined) return undefined;
		const crawler = this._crawler(ua);
		const named = crawler.selection === 'exact' || crawler.selection === 'substring';
		if (!named && !(crawlerName(ua) === '*' && crawler.selection === 'global')) return false;
		return !crawler.isAllowed(path);
	};

	/** The line of the rule that decides `url`, or `-1` when none does (or another origin). */
	Robots.prototype.getMatchingLineNumber = function (url, ua) {
		const decision = this._decide(url, ua);
		return decision && decision.decidedBy ? decision.decidedBy.line : -1;
	};

	/** The crawl delay in seconds, or `undefined`. */
	Robots.prototype.getCrawlDelay = function (ua) {
		const delay = this._crawler(ua).crawlDelay;
		return delay === null ? undefined : delay;
	};

	/** The `Sitemap:` URLs, as written. */
	Robots.prototype.getSitemaps = function () {
		return this._robots.sitemaps.filter((url) => url !== '');
	};

	/** The last `Host:` value, lower-cased, or `null`. */
	Robots.prototype.getPreferredHost = function () {
		const hosts = this._robots.fileExtensions.filter((record) => record.key === 'host' && record.value !== '');
		return hosts.length === 0 ? null : hosts[hosts.length - 1].value.toLowerCase();
	};

	/** Frees the WebAssembly memory now (later, the garbage collector would). */
	Robots.prototype.free = function () {
		for (const crawler of this._crawlers.values()) crawler.free();
		this._crawlers.clear();
		this._robots.free();
	};

	/** robots-parser's factory: `robotsParser(url, contents)`, with `{ profile }` as a third argument. */
	function robotsParser(url, contents, options) {
		return new Robots(url, contents, options);
	}
	robotsParser.Robots = Robots;
	return robotsParser;
}
