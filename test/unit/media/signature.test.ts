import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { isPolyglot } from '../../../src/domain/media/polyglot.ts';
import { sniffFormat } from '../../../src/domain/media/signature.ts';

const pixels = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });

test('the format comes from the leading bytes only, whatever the file is called', async () => {
  assert.equal(sniffFormat(await pixels().jpeg().toBuffer()), 'jpeg');
  assert.equal(sniffFormat(await pixels().png().toBuffer()), 'png');
  assert.equal(sniffFormat(await pixels().gif().toBuffer()), 'gif');
  assert.equal(sniffFormat(await pixels().webp().toBuffer()), 'webp');
  assert.equal(sniffFormat(await pixels().avif().toBuffer()), 'avif');
  assert.equal(sniffFormat(await pixels().tiff().toBuffer()), undefined);
  assert.equal(sniffFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
  assert.equal(sniffFormat(Buffer.from('%PDF-1.7\n')), undefined);
  const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(64)]);
  assert.equal(sniffFormat(heic), undefined);
  assert.equal(sniffFormat(Buffer.alloc(0)), undefined);
});

test('markup in metadata, in the sniffed window or after the image end makes a polyglot; pixels are not scanned', async () => {
  const jpeg = await pixels().jpeg().toBuffer();
  assert.equal(isPolyglot(jpeg, 'jpeg'), false);
  // A COM segment right after SOI.
  const comment = Buffer.from('<script>alert(1)</script>');
  const com = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0, comment.length + 2]), comment]);
  assert.equal(isPolyglot(Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]), 'jpeg'), true);
  // After EOI, beyond the first 1,445 bytes.
  const big = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg().toBuffer();
  assert.ok(big.length > 2000);
  assert.equal(isPolyglot(big, 'jpeg'), false);
  assert.equal(isPolyglot(Buffer.concat([big, Buffer.from('<html><body>hi')]), 'jpeg'), true);
  const gif = await pixels().gif().toBuffer();
  assert.equal(isPolyglot(Buffer.concat([gif, Buffer.from('<script>x</script>')]), 'gif'), true);
  const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png().withMetadata().toBuffer();
  const text = Buffer.concat([Buffer.from('Comment\0'), Buffer.from('x'.repeat(2000) + '<SCRIPT src=//evil>')]);
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  text.copy(chunk, 8);
  const iend = png.length - 12;
  assert.equal(isPolyglot(png, 'png'), false);
  assert.equal(isPolyglot(Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]), 'png'), true);
  const webp = await pixels().webp().toBuffer();
  assert.equal(isPolyglot(Buffer.concat([webp, Buffer.from('javascript:alert(1)')]), 'webp'), true);
});
