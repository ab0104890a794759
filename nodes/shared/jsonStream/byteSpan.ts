/**
 * A run of bytes that may span chunks: views of the earlier chunks,
 * then the current one from `start`.
 */
export class ByteSpan {
	private parts: Buffer[] = [];
	private start = -1;

	begin(at: number): void {
		if (this.parts.length > 0) this.parts = [];
		this.start = at;
	}

	/** Ends the run without reading it. */
	clear(): void {
		this.parts = [];
		this.start = -1;
	}

	/** At the end of a chunk: keep a view of its tail, and go on from the next chunk's first byte. */
	carry(chunk: Buffer): void {
		if (this.start < 0) return;
		if (this.start < chunk.length) this.parts.push(chunk.subarray(this.start));
		this.start = 0;
	}

	end(chunk: Buffer, at: number): Buffer {
		const last = chunk.subarray(this.start, at);
		const bytes = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last]);
		this.clear();
		return bytes;
	}

	/**
	 * Ends the run and hands it to `use` as (bytes, start, end),
	 * copying only a run that spans chunks.
	 */
	read<T>(chunk: Buffer, at: number, use: (bytes: Buffer, start: number, end: number) => T): T {
		if (this.parts.length > 0) {
			const joined = this.end(chunk, at);
			return use(joined, 0, joined.length);
		}
		const start = this.start;
		this.start = -1;
		return use(chunk, start, at);
	}
}
