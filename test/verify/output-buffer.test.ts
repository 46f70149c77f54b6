import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, completeUtf8Prefix, utf8CharStart } from '../../src/verify/output-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything while it fits', () => {
    const b = new HeadTailBuffer(4, 8);
    b.push('hello ');
    b.push(Buffer.from('world!'));
    expect(b.toString()).toBe('hello world!');
    expect(b.totalBytes).toBe(12);
  });

  it('keeps head and tail with an omission marker', () => {
    const b = new HeadTailBuffer(3, 4);
    for (const c of ['abc', 'defgh', 'ij', 'k', 'lmnop']) b.push(c);
    expect(b.toString()).toBe('abc\n… [9 bytes omitted] …\nmnop');
  });

  it('handles chunks larger than the ring and ring wrap-around', () => {
    const b = new HeadTailBuffer(2, 5);
    b.push('0123456789');
    expect(b.toString()).toBe('01\n… [3 bytes omitted] …\n56789');
    b.push('ab');
    b.push('cde');
    expect(b.toString()).toBe('01\n… [8 bytes omitted] …\nabcde');
  });

  it('never splits a multi-byte character at the cuts', () => {
    const b = new HeadTailBuffer(3, 3);
    b.push('aaé€xyz€x'); // a a é(2) €(3) x y z €(3) x = 14 bytes; both cuts fall inside a character
    expect(b.toString()).toBe('aa\n… [11 bytes omitted] …\nx');
    const whole = new HeadTailBuffer(4, 4);
    whole.push('aaé€xyz€');
    expect(whole.toString()).toBe('aaé\n… [5 bytes omitted] …\nz€');
  });

  it('supports a zero budget', () => {
    const b = new HeadTailBuffer(0, 0);
    b.push('abc');
    expect(b.toString()).toBe('\n… [3 bytes omitted] …\n');
  });

  it('finds UTF-8 character boundaries', () => {
    const euro = Buffer.from('€'); // e2 82 ac
    expect(completeUtf8Prefix(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]))).toBe(1);
    expect(completeUtf8Prefix(Buffer.concat([Buffer.from('a'), euro]))).toBe(4);
    expect(utf8CharStart(Buffer.concat([euro.subarray(1), Buffer.from('b')]))).toBe(2);
    expect(utf8CharStart(Buffer.from('b'))).toBe(0);
  });
});
