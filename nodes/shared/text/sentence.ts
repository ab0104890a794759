/** A message without its closing dots, to be set inside a sentence of another. */
export function withoutFinalDots(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '.') end--;
	return text.slice(0, end);
}
