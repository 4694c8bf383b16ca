// The public API of the `robotrules` npm package, around the wasm-bindgen classes `raw`
// (crates/robotrules-js/src). `build.mjs` wraps this file's body as CommonJS and as ESM, so
// that the Node.js entry points (require and import) and the browser entry point share it.
// Everything here is plain modern JavaScript with no imports.

function bind(raw) {
	'use strict';

	const PROFILES = Object.freeze(['rfc9309', 'google', 'legacy1994']);
	const encoder = new TextEncoder();
	const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('nodejs.dispose');
	// A lone surrogate: a high one not followed by a low one, or a low one not after a high one.
	const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
	// How many URLs `allowedMany` hands over at a time, at most (fewer when they fill the
	// scratch buffer): the chunk's text stays in the cache from its writing to its last verdict
	// (one buffer for 12,000 URLs was slower per URL than one crossing per URL).
	const CHUNK = 1024;
	// What the `…Code` methods answer for a question the profile cannot answer.
	const REFUSED = 2;
	// Only this module makes wrappers (`new Robots()` from outside is a TypeError).
	const PRIVATE = Symbol('robotrules');

	// The scratch buffer in WebAssembly memory (src/scratch.rs): the hot paths write their
	// strings there themselves and hand over a length, not a string for wasm-bindgen to
	// allocate, encode and free on every call. Found on first use (the web entry point binds
	// before `init()`). SCRATCH is scratch.rs's size between calls.
	const SCRATCH = 64 * 1024;
	// What `allowedScratch` answers when the verdicts were written.
	const WRITTEN = 0;
	let memory = null;
	let at = 0;
	let room = 0;
	let view = new Uint8Array(0);

	/**
	 * The scratch buffer's bytes, `len` of them at least (a new view after the memory grew,
	 * which detaches the old); asking for `SCRATCH` gives back what a body took beyond. Strings
	 * are written into it with `encodeInto`, which writes what wasm-bindgen's own encoding
	 * writes (a lone surrogate as U+FFFD).
	 */
	function scratch(len) {
		if (len > room || (len <= SCRATCH && room > SCRATCH)) {
			at = raw.scratch(len);
			room = len;
			view = new Uint8Array(0);
		}
		if (view.byteLength === 0) {
			if (memory === null) memory = raw.scratchMemory();
			view = new Uint8Array(memory.buffer, at, room);
		}
		return view;
	}

	/** A crawler name the profile does not answer for (RFC 9309 §2.2.1: a product token). */
	class InvalidAgent extends Error {
		constructor(message, agent, suggestion) {
			super(message);
			this.name = 'InvalidAgent';
			/** The name given. */
			this.agent = agent;
			/** The product token to pass instead, or `null`. */
			this.suggestion = suggestion == null ? null : suggestion;
		}
	}

	/** A URL the profile cannot read (rfc9309, legacy1994: absolute with a host, or a path starting with `/`). */
	class InvalidUrl extends Error {
		constructor(message, url) {
			super(message);
			this.name = 'InvalidUrl';
			/** The URL given. */
			this.url = url;
		}
	}

	/** Throws the JavaScript error for `error`: a wasm `Failure` becomes a typed error. */
	function rethrow(error) {
		if (error instanceof raw.Failure) {
			const kind = error.kind;
			const message = error.message;
			const input = error.input;
			const suggestion = error.suggestion;
			error.free();
			if (kind === 'agent') throw new InvalidAgent(message, input, suggestion);
			if (kind === 'url') throw new InvalidUrl(message, input);
			throw new RangeError(message);
		}
		throw error;
	}

	/** Does `text` hold no lone surrogate? */
	function wellFormed(text) {
		return typeof text.isWellFormed === 'function' ? text.isWellFormed() : !LONE_SURROGATE.test(text);
	}

	/**
	 * The UTF-8 of `text`; a lone surrogate is written as its own three bytes (invalid UTF-8,
	 * as Python's `surrogatepass`), which the parser reports and reads as any invalid byte.
	 */
	function utf8(text) {
		if (wellFormed(text)) return encoder.encode(text);
		const out = [];
		for (let i = 0; i < text.length; i++) {
			let c = text.charCodeAt(i);
			if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
				const d = text.charCodeAt(i + 1);
				if (d >= 0xdc00 && d <= 0xdfff) {
					c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
					i++;
				}
			}
			if (c < 0x80) out.push(c);
			else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
			else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
			else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
		}
		return Uint8Array.from(out);
	}

	/**
	 * Writes `body`'s UTF-8 into the scratch buffer, grown when it needs more: how many bytes,
	 * or -1 for a string with lone surrogates (which `encodeInto` would replace: `utf8` keeps them).
	 */
	function writeBody(body) {
		let { read, written } = encoder.encodeInto(body, scratch(SCRATCH));
		if (read < body.length) {
			// The rest after what was written (the buffer keeps its bytes when it grows).
			const rest = body.slice(read);
			const more = encoder.encodeInto(rest, scratch(written + rest.length * 3).subarray(written));
			written += more.written;
		}
		// As many bytes as UTF-16 units: all ASCII, nothing to check.
		return written === body.length || wellFormed(body) ? written : -1;
	}

	/** A robots.txt body as bytes: a string's UTF-8, or the bytes of a typed array or buffer. */
	function bodyBytes(body) {
		if (typeof body === 'string') return utf8(body);
		if (body instanceof Uint8Array) return body;
		if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
		if (body instanceof ArrayBuffer) return new Uint8Array(body);
		throw new TypeError(`a robots.txt body is a string or a Uint8Array, not ${body === null ? 'null' : typeof body}`);
	}

	function text(value, what) {
		if (typeof value !== 'string') throw new TypeError(`${what} must be a string, not ${value === null ? 'null' : typeof value}`);
		return value;
	}

	function profileOf(options) {
		const profile = options == null || options.profile === undefined ? 'rfc9309' : options.profile;
		return text(profile, 'the profile');
	}

	/** `snake_case` keys to `camelCase`, all the way down (the CLI's JSON, JavaScript's names). */
	function camel(value) {
		if (Array.isArray(value)) return value.map(camel);
		if (value === null || typeof value !== 'object') return value;
		const out = {};
		for (const key of Object.keys(value)) {
			out[key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase())] = camel(value[key]);
		}
		return out;
	}

	function json(textValue) {
		return camel(JSON.parse(textValue));
	}

	/** The bytes of `options.header` (a string or bytes), or `undefined` when none is given. */
	function headerOf(options) {
		const header = options == null ? undefined : options.header;
		return header == null ? undefined : bodyBytes(header);
	}

	function freed(what) {
		return new Error(`this ${what} was freed`);
	}

	/** A parsed robots.txt file (immutable). */
	class Robots {
		#raw;

		constructor(token, inner) {
			if (token !== PRIVATE) throw new TypeError('use Robots.parse(body, { profile })');
			this.#raw = inner;
		}

		/**
		 * Parse `body` (a string, or bytes) under `options.profile` (`'rfc9309'`, the default,
		 * `'google'` or `'legacy1994'`); `options.parseLimit` bytes at most (RFC 9309 §2.5, default
		 * 512,000). Never throws on content: what cannot be read is in `diagnostics`.
		 */
		static parse(body, options) {
			// A string is encoded straight into WebAssembly memory, unless it is huge.
			const direct = typeof body === 'string' && body.length <= 1 << 24;
			const bytes = direct ? null : bodyBytes(body);
			const profile = profileOf(options);
			const limit = options == null ? undefined : options.parseLimit;
			if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0 && limit <= 0xffffffff)) {
				throw new RangeError(`parseLimit must be an integer from 0 to 4294967295, not ${limit}`);
			}
			try {
				const written = direct ? writeBody(body) : -1;
				if (written >= 0) return new Robots(PRIVATE, raw.Robots.parseScratch(written, profile, limit));
				return new Robots(PRIVATE, raw.Robots.parse(bytes === null ? utf8(body) : bytes, profile, limit));
			} catch (error) {
				return rethrow(error);
			} finally {
				if (room > SCRATCH) scratch(SCRATCH);
			}
		}

		#inner() {
			if (this.#raw === null) throw freed('Robots');
			return this.#raw;
		}

		/** The profile the file was read under. */
		get profile() {
			return this.#inner().profile();
		}

		/** The groups for crawler `agent`, resolved once: ask it about many URLs. */
		crawler(agent) {
			text(agent, 'the crawler name');
			try {
				return new Crawler(PRIVATE, this.#inner().crawler(agent));
			} catch (error) {
				return rethrow(error);
			}
		}

		/**
		 * The crawler that a foreign library's user agent or a full User-Agent header stands for:
		 * its product token, else `'*'` (the engine's one policy, the drop-ins'). Never throws on
		 * content.
		 */
		crawlerFor(userAgent) {
			return new Crawler(PRIVATE, this.#inner().crawlerFor(userAgent == null ? '' : text(userAgent, 'the User-Agent')));
		}

		/** The crawler name `crawlerFor(userAgent)` asks about. */
		crawlerNameFor(userAgent) {
			return this.#inner().crawlerNameFor(userAgent == null ? '' : text(userAgent, 'the User-Agent'));
		}

		/**
		 * What this file's profile reads of crawler name `agent` when no group can name it as it
		 * is (`google` reads `User-agent: MJ12bot` as `MJ`): `{ name, reads, token, message }`,
		 * `message` being the CLI's warning; `null` when the name is read whole.
		 */
		nameReading(agent) {
			const found = this.#inner().nameReadingJson(text(agent, 'the crawler name'));
			return found === undefined ? null : json(found);
		}

		/** May crawler `agent` fetch `url` (absolute, or a path starting with `/`)? */
		isAllowed(agent, url) {
			if (typeof agent !== 'string') text(agent, 'the crawler name');
			if (typeof url !== 'string') text(url, 'the URL');
			const inner = this.#inner();
			const code = inner.isAllowedCode(agent, url);
			if (code !== REFUSED) return code === 1;
			try {
				return inner.isAllowed(agent, url);
			} catch (error) {
				return rethrow(error);
			}
		}

		/** `crawler(agent).decide(url)`. */
		decide(agent, url) {
			return this.#once(agent, (crawler) => crawler.decide(url));
		}

		/** `crawler(agent).explain(url)`. */
		explain(agent, url) {
			return this.#once(agent, (crawler) => crawler.explain(url));
		}

		/** `crawler(agent).usage(url, options)`. */
		usage(agent, url, options) {
			return this.#once(agent, (crawler) => crawler.usage(url, options));
		}

		/** `crawler(agent).crawlDelay`. */
		crawlDelay(agent) {
			return this.#once(agent, (crawler) => crawler.crawlDelay);
		}

		/** `crawler(agent).requestRate`. */
		requestRate(agent) {
			return this.#once(agent, (crawler) => crawler.requestRate);
		}

		#once(agent, ask) {
			const crawler = this.crawler(agent);
			try {
				return ask(crawler);
			} finally {
				crawler.free();
			}
		}

		/** Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4). */
		get sitemaps() {
			return this.#inner().sitemaps();
		}

		/** The sitemaps resolved against the robots.txt URL `base`. */
		sitemapsFrom(base) {
			return this.#inner().sitemapsFrom(text(base, 'the base URL'));
		}

		/** Every `License:` URL in the file, as written (RSL 1.0; file-wide, like a sitemap). */
		get licenses() {
			return this.#inner().licenses();
		}

		/** The `License:` URLs resolved against the robots.txt URL `base`. */
		licensesFrom(base) {
			return this.#inner().licensesFrom(text(base, 'the base URL'));
		}

		/** Every `LLM-Policy:` URL in the file, as written (file-wide, like a sitemap). */
		get llmPolicies() {
			return this.#inner().llmPolicies();
		}

		/** The `LLM-Policy:` URLs resolved against the robots.txt URL `base`. */
		llmPoliciesFrom(base) {
			return this.#inner().llmPoliciesFrom(text(base, 'the base URL'));
		}

		/** The `Content-Signal:` lines outside any group, for every crawler: `{line, value}` each. */
		get fileSignals() {
			return json(this.#inner().fileSignalsJson());
		}

		/** What the parser found: `{code, severity, line, start, end, message}` each. */
		get diagnostics() {
			return json(this.#inner().diagnosticsJson());
		}

		/** The extension records outside any group, and `host` wherever it stands: `{key, value, line}`. */
		get fileExtensions() {
			return json(this.#inner().fileExtensionsJson());
		}

		/** How many bytes of the body were read (at most the parse limit). */
		get bytesRead() {
			return this.#inner().bytesRead();
		}

		/** Frees the WebAssembly memory now (later, the garbage collector would). */
		free() {
			if (this.#raw !== null) {
				this.#raw.free();
				this.#raw = null;
			}
		}

		[dispose]() {
			this.free();
		}
	}

	/** One crawler's rules in a parsed file, resolved once. */
	class Crawler {
		#raw;

		constructor(token, inner) {
			if (token !== PRIVATE) throw new TypeError('use robots.crawler(agent)');
			this.#raw = inner;
		}

		#inner() {
			if (this.#raw === null) throw freed('Crawler');
			return this.#raw;
		}

		/** The crawler's name as given. */
		get name() {
			return this.#inner().name();
		}

		/** How its groups were chosen: `'exact'`, `'substring'`, `'global'` or `'unmatched'`. */
		get selection() {
			return this.#inner().selection();
		}

		/** May the crawler fetch `url` (absolute, or a path starting with `/`)? */
		isAllowed(url) {
			if (typeof url !== 'string') text(url, 'the URL');
			const inner = this.#inner();
			// A number back, not wasm-bindgen's array for a `Result`, and the URL written into
			// the scratch buffer here, not copied into memory allocated for the call.
			const { read, written } = encoder.encodeInto(url, scratch(SCRATCH));
			const code = read < url.length ? inner.isAllowedCode(url) : inner.isAllowedScratch(written);
			if (code !== REFUSED) return code === 1;
			try {
				return inner.isAllowed(url);
			} catch (error) {
				return rethrow(error);
			}
		}

		/**
		 * The verdict on each of `urls` (any iterable of strings), in order: a crossing into
		 * WebAssembly per chunk of URLs (written into the scratch buffer, joined with NUL), not
		 * per URL.
		 */
		allowedMany(urls) {
			const list = Array.isArray(urls) ? urls : Array.from(urls);
			for (let i = 0; i < list.length; i++) {
				if (typeof list[i] !== 'string') text(list[i], `URL ${i}`);
			}
			const inner = this.#inner();
			const out = new Array(list.length);
			for (let from = 0; from < list.length; ) {
				// CHUNK URLs at most, whose ASCII fits the scratch buffer.
				let to = from + 1;
				let size = list[from].length;
				while (to < list.length && to - from < CHUNK && size + 1 + list[to].length <= SCRATCH) {
					size += 1 + list[to].length;
					to++;
				}
				this.#judge(inner, list, from, to, out);
				from = to;
			}
			return out;
		}

		/** The verdicts on `list[from..to]` into `out`: their text joined with NUL, written into the scratch buffer. */
		#judge(inner, list, from, to, out) {
			const count = to - from;
			const chunk = from === 0 && to === list.length ? list : list.slice(from, to);
			const joined = chunk.join('\0');
			const { read, written } = encoder.encodeInto(joined, scratch(SCRATCH));
			if (read === joined.length && inner.allowedScratch(written, count) === WRITTEN) {
				const verdicts = scratch(SCRATCH);
				for (let k = 0; k < count; k++) out[from + k] = verdicts[k] === 1;
				return;
			}
			// Longer than the buffer, a URL refused, or one holding a NUL itself: the generic path
			// says which, or asks one URL at a time.
			let verdicts;
			try {
				verdicts = inner.allowedJoined(encoder.encode(joined), count);
			} catch (error) {
				return rethrow(error);
			}
			for (let k = 0; k < count; k++) {
				out[from + k] = verdicts === undefined ? this.isAllowed(chunk[k]) : verdicts[k] === 1;
			}
		}

		/**
		 * May the crawler fetch `url`, why, and which rule decided: `{allowed, profile, reason,
		 * decidedBy: {line, kind, pattern}, usage}` (the CLI's JSON verdict, keys in camelCase;
		 * `decidedBy` absent when no rule decided; `usage`, as `usage(url)` gives it, only when
		 * the crawler has `Content-Usage` or `Content-Signal` lines).
		 */
		decide(url) {
			text(url, 'the URL');
			try {
				return json(this.#inner().decideJson(url));
			} catch (error) {
				return rethrow(error);
			}
		}

		/** The full account: the groups chosen, every matching rule, the deciding one. */
		explain(url) {
			text(url, 'the URL');
			try {
				return json(this.#inner().explainJson(url));
			} catch (error) {
				return rethrow(error);
			}
		}

		/**
		 * May the crawler use `url` for AI training, for search, for AI input, and which line
		 * says so: `{crawlable, vocabularies, combined}` (`robotrules usage --format json`'s
		 * `usage`, keys in camelCase). Each vocabulary (`aipref` from `Content-Usage`,
		 * `content-signals` from `Content-Signal`) gives each category as `allowed`,
		 * `disallowed` or `unknown` with its deciding lines; `combined` gives the categories
		 * both name (`train-ai`, `search`), most-restrictively. A URL the crawler may not crawl
		 * has no preference (`crawlable: false`). `options.header`, the URL's HTTP
		 * `Content-Usage` response header (a string or bytes), is combined as one more statement.
		 */
		usage(url, options) {
			text(url, 'the URL');
			const header = headerOf(options);
			try {
				return json(this.#inner().usageJson(url, header));
			} catch (error) {
				return rethrow(error);
			}
		}

		/**
		 * The crawler's `Content-Usage` and `Content-Signal` lines (its groups' and the file-wide
		 * signals), in file order: `{line, key, vocabulary, groupLine, path, preference,
		 * members, error}` each (as `robotrules show` lists them).
		 */
		get usageStatements() {
			return json(this.#inner().usageStatementsJson());
		}

		/** The crawl delay in seconds, or `null`. */
		get crawlDelay() {
			const delay = this.#inner().crawlDelay();
			return delay === undefined ? null : delay;
		}

		/** The request rate, `{requests, seconds}`, or `null`. */
		get requestRate() {
			const rate = this.#inner().requestRate();
			return rate === undefined ? null : { requests: rate[0], seconds: rate[1] };
		}

		/** The values of the crawler's groups' `visit-time` records, as written. */
		get visitTimes() {
			return this.#inner().visitTimes();
		}

		/** The extension records of the crawler's groups: `{key, value, line}`. */
		get extensions() {
			return json(this.#inner().extensionsJson());
		}

		/** Frees the WebAssembly memory now (later, the garbage collector would). */
		free() {
			if (this.#raw !== null) {
				this.#raw.free();
				this.#raw = null;
			}
		}

		[dispose]() {
			this.free();
		}
	}

	/** Lint `body` for `options.profile`: `{findings, total, ...}`, each finding with its code, line and help. */
	function lint(body, options) {
		const bytes = bodyBytes(body);
		try {
			return json(raw.lintJson(bytes, profileOf(options)));
		} catch (error) {
			return rethrow(error);
		}
	}

	/** The crawler's product token in a full User-Agent header, or `null` when it names no crawler. */
	function crawlerToken(userAgent) {
		const token = raw.crawlerToken(text(userAgent, 'the User-Agent header'));
		return token === undefined ? null : token;
	}

	/**
	 * Does the robots.txt at `robotsTxtUrl` govern `url` (RFC 9309 §2.3: the same scheme, host
	 * and port; a robots.txt below the root governs nothing; a path is of the file's origin)?
	 * Throws `InvalidUrl` for a URL that cannot be read.
	 */
	function governs(robotsTxtUrl, url) {
		try {
			return raw.governs(text(robotsTxtUrl, 'the robots.txt URL'), text(url, 'the URL'));
		} catch (error) {
			return rethrow(error);
		}
	}

	/**
	 * What an HTTP `status` makes of a robots.txt (RFC 9309 §2.3.1): `'success'`, `'redirect'`,
	 * `'unavailable'` (every path allowed) or `'unreachable'` (every path disallowed).
	 * `options.hasLocation` says whether the response names a redirect target;
	 * `options.tooManyRequests` reads 429 as `'unreachable'` (the default) or `'unavailable'`.
	 */
	function statusAccess(status, options = {}) {
		if (!Number.isInteger(status) || status < 0 || status > 65535) {
			throw new RangeError(`status must be an integer from 0 to 65535, not ${status}`);
		}
		try {
			return raw.statusAccess(status, Boolean(options.hasLocation), options.tooManyRequests ?? undefined);
		} catch (error) {
			return rethrow(error);
		}
	}

	/** The size of the WebAssembly memory in bytes (it grows, never shrinks): for leak checks. */
	function memoryBytes() {
		return raw.memoryBytes();
	}

	return Object.freeze({ Robots, Crawler, InvalidAgent, InvalidUrl, lint, crawlerToken, governs, statusAccess, memoryBytes, PROFILES });
}
