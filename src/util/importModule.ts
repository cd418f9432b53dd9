/**
 * Imports a user's module by URL, TypeScript included: from a clone mcp-sim itself runs through
 * tsx, which already loads `.ts`; from the installed package (compiled JavaScript) node refuses
 * a `.ts` file (ERR_UNKNOWN_FILE_EXTENSION), so tsx (a dependency) is registered on that first
 * refusal and the import tried again. Registering only then keeps a process that never meets
 * TypeScript, or that has a loader already (tsx, vitest), as it was.
 */
let registered = false;

export async function importModule(url: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    if (registered || (error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    const { register } = await import('tsx/esm/api');
    register();
    registered = true;
    // A refused import stays refused for its URL (the module map keeps the failure): ask again by another.
    return (await import(`${url}${url.includes('?') ? '&' : '?'}mcp-sim-ts`)) as Record<string, unknown>;
  }
}
