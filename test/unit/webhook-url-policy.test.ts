/**
 * Where a webhook may go in AWS (no loopback) and on the local stack: the URL rules, the addresses a
 * host resolves to (names resolved by an injected resolver: the network edge, not our code), and the
 * sender refusing a forbidden address at connect time even when the URL passed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertWebhookUrl, checkWebhookUrl, isAllowedAddress } from '../../shared/webhooks/url-policy';
import { sendWebhook } from '../../shared/webhooks/sender';

const AWS = { allowLoopback: false };
const LOCAL = { allowLoopback: true };
const headers = { 'webhook-id': 'id', 'webhook-timestamp': '0', 'webhook-signature': 'v1,x' };

describe('in AWS', () => {
  it.each([
    'http://hooks.example.com/in',
    'http://127.0.0.1:8080/in',
    'https://127.0.0.1/in',
    'https://localhost/in',
    'https://[::1]/in',
    'https://2130706433/in',
    'https://0x7f.1/in',
    'https://0/in',
    'https://10.1.2.3/in',
    'https://172.31.255.255/in',
    'https://192.168.0.10/in',
    'https://100.64.0.1/in',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/latest/meta-data/',
    'https://[fe80::1]/in',
    'https://[::ffff:169.254.169.254]/in',
    'https://[64:ff9b::a9fe:a9fe]/in',
    'https://224.0.0.1/in',
    'https://user:secret@hooks.example.com/in',
    'https://hooks.example.com/in#fragment',
    'ftp://hooks.example.com/in',
    'not a url',
    `https://hooks.example.com/${'a'.repeat(2030)}`,
    `https://hooks.example.com/${'é'.repeat(1000)}`,
    'https://[::a9fe:a9fe]/in',
    'https://[fec0::1]/in',
  ])('refuses %s', (url) => {
    expect(() => checkWebhookUrl(url, AWS)).toThrow(/^url /);
  });

  it('accepts an https URL of a public host', () => {
    expect(checkWebhookUrl('https://hooks.example.com/lab?tenant=7', AWS).href).toBe('https://hooks.example.com/lab?tenant=7');
  });

  it('refuses a host name that resolves to a private address', async () => {
    await expect(assertWebhookUrl('https://internal.example.com/in', AWS, async () => ['203.0.114.9', '10.0.0.7'])).rejects.toThrow(/resolves to a private/);
  });

  it('accepts a host name that resolves to public addresses only', async () => {
    await expect(assertWebhookUrl('https://hooks.example.com/in', AWS, async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])).resolves.toBe(
      'https://hooks.example.com/in',
    );
  });

  it('accepts a host name that does not resolve yet (every send checks again)', async () => {
    await expect(assertWebhookUrl('https://not-yet.example.com/in', AWS, async () => Promise.reject(new Error('ENOTFOUND')))).resolves.toBe(
      'https://not-yet.example.com/in',
    );
  });

  it('refuses, at connect time, a name that resolves to a forbidden address, before any connection is made', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.writeHead(200).end());
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const rebound = async () => ['127.0.0.1']; // DNS answering loopback after the URL was accepted
    const url = `https://hooks.example.test:${port}/in`;
    try {
      const refused = await sendWebhook(url, headers, '{}', AWS, rebound);
      expect(refused).toEqual({ status_code: null, error: 'the host resolves to a private, loopback, link-local or reserved address' });
      expect(connections).toBe(0);
      // The same send where loopback is allowed does connect (then fails TLS): the lookup was the guard.
      await sendWebhook(url, headers, '{}', LOCAL, rebound);
      expect(connections).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('on the local stack', () => {
  it.each(['http://127.0.0.1:8080/in', 'http://localhost:8080/in', 'http://[::1]:8080/in', 'https://127.0.0.1/in'])(
    'accepts the loopback receiver %s',
    (url) => {
      expect(() => checkWebhookUrl(url, LOCAL)).not.toThrow();
    },
  );

  it.each(['http://127.0.0.2:8080/in', 'http://127.255.255.254/in', 'http://2130706434/in', 'http://[::ffff:127.0.1.1]/in', 'https://127.1.2.3/in'])(
    'accepts every address of 127.0.0.0/8, not 127.0.0.1 alone: %s',
    (url) => {
      expect(() => checkWebhookUrl(url, LOCAL)).not.toThrow();
    },
  );

  it.each(['http://127.0.0.2:8080/in', 'https://127.1.2.3/in'])('refuses in AWS the loopback address the local stack accepts: %s', (url) => {
    expect(() => checkWebhookUrl(url, AWS)).toThrow(/^url must/);
  });

  it('accepts over https a name that resolves to a loopback address, and refuses it over http, saying which receivers http may reach', async () => {
    const loopbackName = async () => ['127.0.1.1'];
    await expect(assertWebhookUrl('https://dev-box.example.test/in', LOCAL, loopbackName)).resolves.toBe('https://dev-box.example.test/in');
    await expect(assertWebhookUrl('http://dev-box.example.test/in', LOCAL, loopbackName)).rejects.toThrow(
      'url must use https (http only to localhost or a loopback address: 127.0.0.0/8, ::1)',
    );
  });

  it.each(['http://hooks.example.com/in', 'https://10.0.0.1/in', 'https://169.254.169.254/', 'http://0.0.0.0:8080/in', 'http://[::2]/in'])(
    'still refuses %s',
    (url) => {
      expect(() => checkWebhookUrl(url, LOCAL)).toThrow(/^url /);
    },
  );

  it('treats an IPv4-mapped loopback address as loopback', () => {
    expect(isAllowedAddress('::ffff:127.0.0.1', LOCAL)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', AWS)).toBe(false);
  });
});
