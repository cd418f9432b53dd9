/** JSON pointers (RFC 6901): how errors name a subschema, and how `$ref` reaches one. */

/** `pointer` with one more reference token, escaped (`~` → `~0`, `/` → `~1`). */
export function childPointer(pointer: string, ...tokens: (string | number)[]): string {
  return tokens.reduce<string>((acc, token) => `${acc}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`, pointer);
}

/** The reference tokens of a pointer (`''` → none), unescaped; undefined when it is not a pointer. */
export function pointerTokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}
