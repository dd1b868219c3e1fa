import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uploadSlots } from '../db/schema';
import { lockUserRow } from '../db/user-lock';
import { ApiError } from '../http/errors';

// A person's uploads under way at once (docs/decisions/074-a-persons-uploads-at-once-are-few.md): each holds a slot,
// a row of `upload_slots`, from before its body is read until its answer, so that uploads started together cost no
// more bodies streamed to disk than a person can keep. Rows, not the rate-limit counters: every worker and server
// reads them with the person's row locked, and one whose request died (its worker with it) lapses on its own.

/** Uploads one person may have under way at once, all routes together (the portal sends one at a time). */
export const UPLOADS_AT_ONCE = 2;

/** A slot is held this long, and renewed while its upload goes on: one whose worker died is free after it. */
export const UPLOAD_SLOT = { holdMs: 60_000, renewMs: 20_000 } as const;

export const UPLOADS_AT_ONCE_TEXT = `You have ${UPLOADS_AT_ONCE} uploads still on their way. Try this one again once one of them has finished.`;

interface Held {
  release(): Promise<void>;
}

const held = new WeakMap<FastifyRequest, Held>();

/** An upload under way: what it would add, and the bytes of the person's room it may take. */
export interface UploadUnderWay {
  kind: string;
  bytes: number;
}

/**
 * Takes one of the person's upload slots for this request, before its body is read, or refuses it `409` when they
 * have `UPLOADS_AT_ONCE` under way. `admit`, asked first with the person's row locked and their other uploads under
 * way, refuses what its route cannot take now (a music with room for one more track, one on its way) and says how
 * many bytes of the room this upload may take: the slot keeps them from the next upload's `admit`
 * (docs/decisions/076-an-upload-keeps-the-room-it-may-take.md). Called by a route's `withUploadSlot` preHandler: the
 * slot is given back before the answer goes out, or as the request ends however it ends (aborted, timed out, failed).
 * Returns what `admit` returned.
 */
export async function holdUploadSlot<Admitted extends { keeps: number }>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  kind: string,
  admit?: (tx: Db, others: readonly UploadUnderWay[]) => Promise<Admitted>,
): Promise<Admitted | undefined> {
  const { id, admitted } = await db.transaction(async (tx) => {
    await lockUserRow(tx, userId);
    await tx.delete(uploadSlots).where(and(eq(uploadSlots.userId, userId), lte(uploadSlots.heldUntil, new Date())));
    const others = await tx
      .select({ kind: uploadSlots.kind, bytes: uploadSlots.bytes })
      .from(uploadSlots)
      .where(eq(uploadSlots.userId, userId));
    const admitted = await admit?.(tx, others);
    if (others.length >= UPLOADS_AT_ONCE) throw new ApiError(409, { detail: UPLOADS_AT_ONCE_TEXT });
    const [row] = await tx
      .insert(uploadSlots)
      .values({ userId, kind, bytes: admitted?.keeps ?? 0, heldUntil: new Date(Date.now() + UPLOAD_SLOT.holdMs) })
      .returning({ id: uploadSlots.id });
    return { id: row!.id, admitted };
  });
  const mine = eq(uploadSlots.id, id);
  const renew = setInterval(() => {
    db.update(uploadSlots)
      .set({ heldUntil: new Date(Date.now() + UPLOAD_SLOT.holdMs) })
      .where(mine)
      .catch((error: unknown) => request.log.warn({ err: error }, 'upload slot not renewed'));
  }, UPLOAD_SLOT.renewMs);
  renew.unref();
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= (async () => {
      clearInterval(renew);
      reply.raw.off('close', onClose);
      held.delete(request);
      // Not given back (the database unreachable), it lapses after UPLOAD_SLOT.holdMs.
      await db
        .delete(uploadSlots)
        .where(mine)
        .catch((error: unknown) => request.log.warn({ err: error }, 'upload slot not given back'));
    })());
  const onClose = () => void release();
  held.set(request, { release });
  reply.raw.once('close', onClose);
  // The client went away while the slot was taken: nothing will close it again.
  if (request.raw.socket?.destroyed === true || reply.raw.writableEnded) await release();
  return admitted;
}

/** Gives an upload's slot back before its answer goes out, so that a client told it is done may send the next. */
const giveBackBeforeAnswer = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
  await held.get(request)?.release();
  return payload;
};

/**
 * The hooks of an upload route: `take` before its body is read (it calls `holdUploadSlot`), and the slot given back
 * before the answer. On the route, not the app, so that only the requests that may hold a slot look for one.
 */
export const withUploadSlot = (take: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => ({
  preHandler: take,
  onSend: giveBackBeforeAnswer,
});
