/**
 * Hands `chunk` to `each` piece by piece: each piece up to and including a newline (`lineEnded`
 * true), then what follows the last newline (false), so a reader of a stream learns where its
 * lines end whatever the size of the chunks the pipe brings.
 */
export function forEachLinePiece(chunk: string, each: (piece: string, lineEnded: boolean) => void): void {
  let i = 0;
  while (i < chunk.length) {
    const newline = chunk.indexOf('\n', i);
    const end = newline === -1 ? chunk.length : newline + 1;
    each(chunk.slice(i, end), newline !== -1);
    i = end;
  }
}
