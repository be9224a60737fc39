// Issue #52: being built.
export const handler = async (): Promise<void> => undefined;
