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
	// What a URL may hold after its robots.txt's origin, up to a `#`, and be read by `new URL`
	// exactly as written (its path and query, then, are that text): unreserved characters,
	// the sub-delimiters but `'` (a special URL's query encodes it), `:`, `@`, `/`, `?` and
	// `%`. Not `\\`, spaces, quotes, controls or non-ASCII, which `new URL` changes.
	const PLAIN = /^[A-Za-z0-9\-._~!$&()*+,;=:@\/?%]*$/;
	// A dot segment (`.`, `..`, or either spelled with `%2e`), which `new URL` removes (in a
	// query it stays: such URLs take the long way).
	const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?]|$)/i;
	// ASCII only.
	const ASCII = /^[\x00-\x7f]*$/;
	// No User-Agent asked about yet.
	const NONE = Symbol('none');

	/** Percent-encodings upper-cased, as robots-parser reads a URL (RFC 3986 §6.2.2.1). */
	function upperEscapes(text) {
		return text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
	}

	function parseUrl(url) {
		try {
			const parsed = new URL(url, RELATIVE_BASE);
			return {
				protocol: parsed.protocol,
				hostname: parsed.hostname,
				port: parsed.port || DEFAULT_PORTS[parsed.protocol] || '',
				path: upperEscapes(parsed.pathname + parsed.search)
			};
		} catch (e) {
			return null;
		}
	}

	/**
	 * `scheme://host[:port]/` as `new URL` writes the origin of `parsed`: a URL that starts
	 * with it has that origin.
	 */
	function originPrefix(parsed) {
		if (parsed === null || DEFAULT_PORTS[parsed.protocol] === undefined) return null;
		const port = parsed.port === DEFAULT_PORTS[parsed.protocol] ? '' : `:${parsed.port}`;
		return `${parsed.protocol}//${parsed.hostname}${port}/`;
	}

	/**
	 * A parsed robots.txt for `url`, read under `options.profile` (`'google'` by default,
	 * the reading closest to robots-parser's).
	 */
	function Robots(url, contents, options) {
		this._url = parseUrl(url);
		this._prefix = originPrefix(this._url);
		const profile = options && options.profile !== undefined ? options.profile : 'google';
		this._robots = api.Robots.parse(contents == null ? '' : String(contents), { profile });
		// Each crawler asked about, by the name it was asked as: `{ name, crawler }`.
		this._crawlers = new Map();
		// The last `ua` asked about (a string, or undefined) and its entry: a crawl asks about
		// one User-Agent, so most calls skip reading it again.
		this._lastUa = NONE;
		this._last = null;
	}

	/**
	 * The engine's crawler for `ua` and the name it was asked as (`crawlerNameFor`, the
	 * engine's policy: the crawler's token, else `*`). `ua` is read once (a `ua`
	 * that is not a string runs its `toString`, which could ask this parser about others).
	 */
	Robots.prototype._entry = function (ua) {
		if (ua === this._lastUa) return this._last;
		const name = this._robots.crawlerNameFor(ua ? String(ua) : '');
		let entry = this._crawlers.get(name);
		if (entry === undefined) {
			// The engine's one policy: the name it gives is always one the profile answers for.
			const crawler = this._robots.crawler(name);
			if (this._crawlers.size >= KEPT) this._forgetCrawlers();
			entry = { name, crawler };
			this._crawlers.set(name, entry);
		}
		if (ua === undefined || typeof ua === 'string') {
			this._lastUa = ua;
			this._last = entry;
		}
		return entry;
	};

	/** The engine's crawler for `ua` (see `_entry`). */
	Robots.prototype._crawler = function (ua) {
		return this._entry(ua).crawler;
	};

	/** Frees every crawler asked about so far, the remembered one included. */
	Robots.prototype._forgetCrawlers = function () {
		for (const { crawler } of this._crawlers.values()) crawler.free();
		this._crawlers.clear();
		this._lastUa = NONE;
		this._last = null;
	};

	/** The path and query of `url`, or `undefined` when this robots.txt does not govern it. */
	Robots.prototype._path = function (url) {
		// The common URL, read as `new URL` would read it, without `new URL`: this origin (its
		// scheme and host in any case), then plain text up to a fragment (a lone `?` at the end
		// is an empty query, which `search` leaves out).
		const prefix = this._prefix;
		if (prefix !== null && typeof url === 'string') {
			const head = url.slice(0, prefix.length);
			if (head === prefix || (head.toLowerCase() === prefix && ASCII.test(head))) {
				const hash = url.indexOf('#', prefix.length);
				const rest = url.slice(prefix.length - 1, hash === -1 ? url.length : hash);
				if (PLAIN.test(rest) && !DOT_SEGMENT.test(rest) && !rest.endsWith('?')) {
					return rest.includes('%') ? upperEscapes(rest) : rest;
				}
			}
		}
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
		const { name, crawler } = this._entry(ua);
		const named = crawler.selection === 'exact' || crawler.selection === 'substring';
		if (!named && !(name === '*' && crawler.selection === 'global')) return false;
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
		this._forgetCrawlers();
		this._robots.free();
	};

	/** robots-parser's factory: `robotsParser(url, contents)`, with `{ profile }` as a third argument. */
	function robotsParser(url, contents, options) {
		return new Robots(url, contents, options);
	}
	robotsParser.Robots = Robots;
	return robotsParser;
}
