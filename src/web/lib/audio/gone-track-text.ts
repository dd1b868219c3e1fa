// Why a track does not play (any more), said alike of a saved sound and on /music (light: no engine,
// so the shared page can say it too).

/** Why a library track does not play: staff removed it. */
export const NOT_IN_LIBRARY = 'no longer in the library';
/** Why one of the person's own tracks does not play: they deleted it. */
export const NOT_IN_OWN_MUSIC = 'no longer in your music';
