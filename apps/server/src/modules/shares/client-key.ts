/** One client for the extraction guard: the same key the sign-in lockout counts by (IPv4, or IPv6 /64). */
export { clientKey } from '@cadcloud/sso';
