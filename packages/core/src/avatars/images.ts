/**
 * Uploaded avatars as the reference stores them: the image recognised by its leading bytes (not
 * the client's claimed type or name), turned upright by its EXIF orientation, cropped to a
 * centred square and scaled to 100px (the avatar) and 500px (the medium avatar), both PNG.
 * Only the first frame of an animated image is kept.
 */
import { err, ok, type Result } from 'neverthrow';
import sharp from 'sharp';
import { detectImageType } from '../emoji/image.js';
import { type ApiError, badRequest } from '../errors.js';

/** The reference's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE, in pixels. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/**
 * The most pixels a decoded image may have (the reference's IMAGE_BOMB_TOTAL_PIXELS): a small
 * file can declare a huge canvas, and decoding it would take that much memory.
 */
export const MAX_AVATAR_PIXELS = 90_000_000;

/** The two PNG images an uploaded avatar is served as. */
export interface AvatarImages {
  small: Uint8Array;
  medium: Uint8Array;
}

/** An uploaded file's bytes as avatar images, or the reference's error for what is not an image it takes. */
export async function avatarImages(bytes: Uint8Array): Promise<Result<AvatarImages, ApiError>> {
  if (detectImageType(bytes) === null) return err(badRequest('Invalid image format'));
  try {
    const [small, medium] = await Promise.all([square(bytes, AVATAR_SIZE), square(bytes, MEDIUM_AVATAR_SIZE)]);
    return ok({ small, medium });
  } catch (error) {
    // sharp's only way of saying so is its message; anything else it cannot read is not an image.
    if (error instanceof Error && /pixel limit/i.test(error.message)) return err(badRequest('Image size exceeds limit.'));
    return err(badRequest('Could not decode image; did you upload an image file?'));
  }
}

async function square(bytes: Uint8Array, size: number): Promise<Uint8Array> {
  const png = await sharp(bytes, { limitInputPixels: MAX_AVATAR_PIXELS, animated: false, failOn: 'error' })
    .rotate()
    .resize(size, size, { fit: 'cover', position: 'centre' })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}
