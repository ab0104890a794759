// @ts-check
'use strict';

const zlib = require('node:zlib');
const { PassThrough, Readable, Writable, pipeline } = require('node:stream');

/**
 * What happens to an answer between the handler that writes it and the
 * socket: content coding (`compression`) and a bandwidth cap
 * (`bandwidthBytesPerSecond`), so a compressed answer over a slow wide-area
 * link can be modelled on loopback. Handlers keep writing to `res` as usual.
 */

/** @typedef {'gzip' | 'br' | 'deflate'} ContentCoding */

/** @type {ContentCoding[]} */
const CODINGS = ['gzip', 'br', 'deflate'];

/** How often the bandwidth cap lets a slice of bytes out: small enough to look like a steady link. */
const SLICE_MS = 10;

/**
 * The coding to answer in: among those `compression` allows, the one the
 * request's Accept-Encoding prefers (highest q; on a tie, the one it lists
 * first). q=0 refuses a coding, `*` stands for codings not named. No header,
 * or compression off, means no coding.
 * @param {string | string[] | undefined} acceptEncoding
 * @param {boolean | string[] | undefined} compression
 * @returns {ContentCoding | undefined}
 */
function negotiateEncoding(acceptEncoding, compression) {
	if (!compression || acceptEncoding === undefined) return undefined;
	const allowed =
		compression === true ? CODINGS : CODINGS.filter((coding) => compression.includes(coding));
	/** @type {Map<string, {q: number, order: number}>} */
	const asked = new Map();
	String(acceptEncoding)
		.split(',')
		.forEach((part, order) => {
			const [name, ...params] = part.split(';');
			const coding = name.trim().toLowerCase();
			if (coding === '' || asked.has(coding)) return;
			let q = 1;
			for (const param of params) {
				const [key, value = ''] = param.split('=');
				if (key.trim().toLowerCase() === 'q') q = Number(value.trim());
			}
			asked.set(coding, { q: Number.isFinite(q) ? q : 0, order });
		});
	/** @type {{coding: ContentCoding, q: number, order: number} | undefined} */
	let best;
	for (const coding of allowed) {
		const preference = asked.get(coding) ?? asked.get('*');
		if (!preference || preference.q <= 0) continue;
		if (
			!best ||
			preference.q > best.q ||
			(preference.q === best.q && preference.order < best.order)
		) {
			best = { coding, ...preference };
		}
	}
	return best?.coding;
}

/**
 * A streaming encoder for one answer. The emulator serves answers of 200 MB
 * and more on two shared cores, so speed wins over ratio: gzip and deflate
 * at level 1 and brotli at quality 1 keep the emulator from becoming the
 * bottleneck (brotli's default quality 11 runs at a few MB/s), and JSON this
 * repetitive still shrinks several times. Every write is flushed, so what a
 * handler wrote reaches the client as it would uncompressed (a dripping or
 * stalled answer stays one).
 * @param {ContentCoding} coding
 */
function createEncoder(coding) {
	const chunkSize = 64 * 1024;
	if (coding === 'br') {
		return zlib.createBrotliCompress({
			chunkSize,
			flush: zlib.constants.BROTLI_OPERATION_FLUSH,
			params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 },
		});
	}
	const options = { level: 1, chunkSize, flush: zlib.constants.Z_SYNC_FLUSH };
	return coding === 'gzip' ? zlib.createGzip(options) : zlib.createDeflate(options);
}

/**
 * Takes the encoded bytes to the socket, at most `bytesPerSecond` of them
 * (none of them before their time: the last byte of an answer of n bytes
 * leaves no earlier than n / bytesPerSecond after the first write), in
 * slices of about SLICE_MS. Each slice waits for the socket to take the
 * previous one, so a slow reader slows the answer down rather than filling
 * memory.
 */
class WireSink extends Writable {
	/**
	 * @param {(chunk: Buffer, done: (error?: Error | null) => void) => void} writeOut
	 * @param {number | null | undefined} bytesPerSecond
	 */
	constructor(writeOut, bytesPerSecond) {
		super();
		this.writeOut = writeOut;
		this.bytesPerSecond = bytesPerSecond && bytesPerSecond > 0 ? bytesPerSecond : undefined;
		/** Bytes the socket has taken. */
		this.onWire = 0;
		/** @type {number | undefined} */
		this.startedAt = undefined;
		/** @type {NodeJS.Timeout | undefined} */
		this.timer = undefined;
		/** @type {Array<{bytes: number, callback: () => void}>} */
		this.waiters = [];
	}

	/**
	 * @param {Buffer} chunk
	 * @param {BufferEncoding} _encoding
	 * @param {(error?: Error | null) => void} done
	 */
	_write(chunk, _encoding, done) {
		let offset = 0;
		/** @param {Error | null | undefined} [error] */
		const next = (error) => {
			if (error) return done(error);
			if (offset >= chunk.length) return done();
			const { bytes, waitMs } = this.allowance(chunk.length - offset);
			if (bytes === 0) {
				this.timer = setTimeout(next, waitMs);
				return;
			}
			const slice = chunk.subarray(offset, offset + bytes);
			offset += bytes;
			this.writeOut(slice, (writeError) => {
				this.onWire += slice.length;
				this.wakeWaiters();
				next(writeError);
			});
		};
		next();
	}

	/**
	 * How many of `remaining` bytes may go now, or how long to wait first.
	 * @param {number} remaining
	 */
	allowance(remaining) {
		if (!this.bytesPerSecond) return { bytes: remaining, waitMs: 0 };
		const now = Date.now();
		this.startedAt ??= now;
		const slice = Math.max(1, Math.floor((this.bytesPerSecond * SLICE_MS) / 1000));
		const due = Math.floor((this.bytesPerSecond * (now - this.startedAt)) / 1000) - this.onWire;
		const wanted = Math.min(slice, remaining);
		if (due >= wanted) return { bytes: Math.min(remaining, due), waitMs: 0 };
		return {
			bytes: 0,
			waitMs: Math.max(1, Math.ceil(((wanted - due) * 1000) / this.bytesPerSecond)),
		};
	}

	/**
	 * Calls back once the socket has taken `bytes` bytes in all.
	 * @param {number} bytes
	 * @param {() => void} callback
	 */
	whenOnWire(bytes, callback) {
		if (this.onWire >= bytes) callback();
		else this.waiters.push({ bytes, callback });
	}

	wakeWaiters() {
		const ready = this.waiters.filter((waiter) => this.onWire >= waiter.bytes);
		this.waiters = this.waiters.filter((waiter) => this.onWire < waiter.bytes);
		for (const waiter of ready) waiter.callback();
	}

	/**
	 * @param {Error | null} error
	 * @param {(error?: Error | null) => void} done
	 */
	_destroy(error, done) {
		clearTimeout(this.timer);
		this.waiters = [];
		done(error);
	}
}

/**
 * Answers a handler builds once and hands over whole, again and again while
 * nothing changes (a form's inquiries): the first time one is sent in a
 * coding, its coded bytes are kept, and later sends in that coding reuse
 * them instead of compressing the same bytes again. A hundred triggers
 * polling the same forms then cost the emulator a copy each, not a
 * compression each, so it does not become the bound of a benchmark.
 * @type {WeakSet<Buffer>}
 */
const reusableBodies = new WeakSet();
/** @type {WeakMap<Buffer, Map<ContentCoding, Buffer>>} */
const codedBodies = new WeakMap();

/**
 * Marks a whole answer as one the handler sends unchanged until its data changes (see reusableBodies).
 * @param {Buffer} body
 * @returns {Buffer} the same buffer
 */
function reusableBody(body) {
	reusableBodies.add(body);
	return body;
}

/**
 * What the log records of one answer's body.
 * @typedef {{contentEncoding?: ContentCoding, bodyBytes?: number, wireBytes?: number, codedBytesReused?: boolean}} WireRecord
 */

/**
 * Puts the encoder and the bandwidth cap between the handler and the socket
 * by replacing `res`'s writeHead, write and end (as compression middleware
 * does), and records the answer's coding and sizes on `record`. Without a
 * coding and a cap, only the sizes are counted.
 * @param {import('node:http').ServerResponse} res
 * @param {{coding?: ContentCoding, bytesPerSecond?: number | null, record: WireRecord}} options
 */
function shapeAnswer(res, { coding, bytesPerSecond, record }) {
	const originalWriteHead = res.writeHead;
	const originalWrite = res.write;
	const originalEnd = res.end;
	record.bodyBytes = 0;
	record.wireBytes = 0;

	if (!coding && !(bytesPerSecond && bytesPerSecond > 0)) {
		/** @param {unknown} chunk @param {unknown} [encoding] */
		const count = (chunk, encoding) => {
			const bytes = chunkBytes(chunk, encoding);
			record.bodyBytes = (record.bodyBytes ?? 0) + bytes;
			record.wireBytes = (record.wireBytes ?? 0) + bytes;
		};
		res.write = /** @type {any} */ (
			function (/** @type {any[]} */ ...args) {
				count(args[0], args[1]);
				return originalWrite.apply(res, /** @type {any} */ (args));
			}
		);
		res.end = /** @type {any} */ (
			function (/** @type {any[]} */ ...args) {
				if (typeof args[0] !== 'function') count(args[0], args[1]);
				return originalEnd.apply(res, /** @type {any} */ (args));
			}
		);
		return;
	}

	const sink = new WireSink((chunk, done) => {
		record.wireBytes = (record.wireBytes ?? 0) + chunk.length;
		/** @type {(chunk: Buffer, done: (error?: Error | null) => void) => boolean} */ (
			originalWrite
		).call(res, chunk, done);
	}, bytesPerSecond);
	/** Encoded bytes the head has handed on towards the socket. */
	let handedOn = 0;
	/** @type {(() => void) | undefined} */
	let afterLastByte;
	/**
	 * What the body goes through on its way to the sink: the encoder (or, with
	 * no coding, a pass-through), or the coded bytes of a reusable answer sent
	 * before. Made on the first write, once it is known which.
	 * @type {import('node:stream').Readable | undefined}
	 */
	let head;
	/**
	 * @param {import('node:stream').Readable} source
	 * @param {(coded: Buffer) => void} [keepCoded] called with every byte the source produced, once all reached the socket
	 */
	const startHead = (source, keepCoded) => {
		head = source;
		/** @type {Buffer[] | undefined} */
		const produced = keepCoded ? [] : undefined;
		source.on('data', (chunk) => {
			handedOn += chunk.length;
			produced?.push(chunk);
		});
		source.on('drain', () => res.emit('drain'));
		pipeline(source, sink, (error) => {
			if (error) {
				res.destroy();
				return;
			}
			if (produced && keepCoded) keepCoded(Buffer.concat(produced));
			/** @type {(done?: () => void) => void} */ (originalEnd).call(res, afterLastByte);
		});
	};
	/** @type {import('node:stream').Duplex | undefined} The encoder (or pass-through) the body is written into. */
	let input;
	const encoder = () => {
		if (!input) {
			input = coding ? createEncoder(coding) : new PassThrough();
			startHead(input);
		}
		return input;
	};
	res.on('close', () => {
		if (!res.writableFinished) head?.destroy();
	});

	res.writeHead = /** @type {any} */ (
		function (/** @type {number} */ status, /** @type {any[]} */ ...rest) {
			if (coding) {
				res.removeHeader('Content-Length');
				const last = rest.length > 0 && typeof rest[rest.length - 1] === 'object' ? rest.pop() : {};
				/** @type {Record<string, unknown>} */
				const headers = {};
				for (const [name, value] of Object.entries(last ?? {})) {
					if (name.toLowerCase() !== 'content-length') headers[name] = value;
				}
				headers['Content-Encoding'] = coding;
				headers['Vary'] = 'Accept-Encoding';
				rest.push(headers);
				record.contentEncoding = coding;
			}
			return originalWriteHead.call(res, status, ...rest);
		}
	);

	/**
	 * @param {unknown} chunk
	 * @param {unknown} encoding
	 * @param {(() => void) | undefined} callback called once the socket has taken this chunk
	 */
	const writeBody = (chunk, encoding, callback) => {
		if (!res.headersSent) res.writeHead(res.statusCode);
		const bytes = toBuffer(chunk, encoding);
		record.bodyBytes = (record.bodyBytes ?? 0) + bytes.length;
		const into = encoder();
		return into.write(bytes, () => {
			if (callback) sink.whenOnWire(handedOn + into.readableLength, callback);
		});
	};

	/**
	 * A reusable answer sent whole as the first and only write: its coded
	 * bytes from an earlier send, or this send's kept for the next.
	 * @param {Buffer} body
	 * @param {ContentCoding} answerCoding
	 */
	const endReusable = (body, answerCoding) => {
		if (!res.headersSent) res.writeHead(res.statusCode);
		record.bodyBytes = (record.bodyBytes ?? 0) + body.length;
		const coded = codedBodies.get(body)?.get(answerCoding);
		if (coded) {
			record.codedBytesReused = true;
			startHead(Readable.from([coded], { objectMode: false }));
			return;
		}
		const keep = (/** @type {Buffer} */ bytes) =>
			codedBodies.set(body, (codedBodies.get(body) ?? new Map()).set(answerCoding, bytes));
		input = createEncoder(answerCoding);
		startHead(input, keep);
		input.end(body);
	};

	res.write = /** @type {any} */ (
		function (
			/** @type {unknown} */ chunk,
			/** @type {unknown} */ encoding,
			/** @type {unknown} */ callback,
		) {
			const done = typeof encoding === 'function' ? encoding : callback;
			return writeBody(
				chunk,
				typeof encoding === 'function' ? undefined : encoding,
				/** @type {any} */ (done),
			);
		}
	);

	res.end = /** @type {any} */ (
		function (
			/** @type {unknown} */ chunk,
			/** @type {unknown} */ encoding,
			/** @type {unknown} */ callback,
		) {
			const done = [chunk, encoding, callback].find((arg) => typeof arg === 'function');
			afterLastByte = /** @type {any} */ (done);
			if (coding && head === undefined && Buffer.isBuffer(chunk) && reusableBodies.has(chunk)) {
				endReusable(chunk, coding);
				return res;
			}
			if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
				writeBody(chunk, typeof encoding === 'function' ? undefined : encoding, undefined);
			} else if (!res.headersSent) {
				res.writeHead(res.statusCode);
			}
			encoder().end();
			return res;
		}
	);
}

/**
 * @param {unknown} chunk
 * @param {unknown} encoding
 */
function toBuffer(chunk, encoding) {
	if (Buffer.isBuffer(chunk)) return chunk;
	if (chunk instanceof Uint8Array)
		return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
	return Buffer.from(
		String(chunk ?? ''),
		/** @type {BufferEncoding} */ (typeof encoding === 'string' ? encoding : 'utf8'),
	);
}

/**
 * @param {unknown} chunk
 * @param {unknown} encoding
 */
function chunkBytes(chunk, encoding) {
	if (chunk === undefined || chunk === null || typeof chunk === 'function') return 0;
	return toBuffer(chunk, encoding).length;
}

module.exports = { negotiateEncoding, shapeAnswer, reusableBody, CODINGS };
