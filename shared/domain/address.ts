/** The spec's address object (shipments' origin and destination, home kit delivery addresses). */
export interface Address {
  name: string;
  street: string;
  house_number: string;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  phone: string | null;
  email: string | null;
}
