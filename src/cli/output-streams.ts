/**
 * Work to do on `process.stdout` / `process.stderr` as soon as the stream exists, without
 * creating it. Node creates each stream on first use, and creating one for a pipe loads its
 * net and stream modules — more than a read-only command such as `ralph --status` costs
 * otherwise, and it writes through file descriptor 1 without them. Guards that every stream
 * needs (redaction, a reader that went away) are therefore attached the moment anything first
 * touches the stream, in the order they were asked for.
 */
export function prepareWhenCreated(
  name: 'stdout' | 'stderr',
  prepare: (stream: NodeJS.WriteStream) => void,
  owner: Pick<NodeJS.Process, 'stdout' | 'stderr'> = process,
): void {
  const own = Object.getOwnPropertyDescriptor(owner, name);
  const create = own?.get;
  if (!own || !create || !own.configurable) {
    prepare(owner[name]);
    return;
  }
  let stream: NodeJS.WriteStream | undefined;
  Object.defineProperty(owner, name, {
    configurable: true,
    enumerable: own.enumerable ?? true,
    get(): NodeJS.WriteStream {
      if (stream === undefined) {
        stream = create.call(owner) as NodeJS.WriteStream;
        prepare(stream);
      }
      return stream;
    },
  });
}
