/** The email of a message, in the profile's language (issue #52). */
import type { ComposedEmail, EmailFacts } from './content';

export function composeEmail(facts: EmailFacts): ComposedEmail {
  throw new Error(`composeEmail: not built yet (${facts.type})`);
}
