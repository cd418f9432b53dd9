/**
 * Scripted handlers use no output or elicitation schemas, and the SDK's default Ajv validator
 * costs about 2 ms per endpoint, more than a whole simulated run: a pass-through one replaces it
 * (`jsonSchemaValidator` of `Client` and `Server` in 1.x and 2.x; releases without the option
 * ignore it).
 */
export const passThroughValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }),
};
