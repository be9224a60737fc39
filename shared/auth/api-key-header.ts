/** The header an API key travels in, and the message when it is missing. Pure: the gateway answers use it too. */
export const API_KEY_HEADER = 'x-api-key';
export const MISSING_KEY_MESSAGE = 'Missing x-api-key header';
