import type { FastifyInstance } from 'fastify';
import type { AnswerReplay } from './answer-replay.ts';

/**
 * Records answers as they leave: registered after every hook that sets headers on all routes
 * (security, CORS), so that a replay carries the same ones.
 */
export function registerReplayRecording(app: FastifyInstance, replay: AnswerReplay): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    replay.record(request.raw, reply.statusCode, reply.getHeaders(), payload);
    done(null, payload);
  });
}
