package io.eventplane.topology;

/**
 * When a writer task that keeps up commits: the rule alone, with the time passed in (no clock, no Kafka).
 *
 * <p>Under read_committed a change is visible only once its transaction commits, and a commit costs the writer a few
 * round trips to the broker and the broker a few appends. A fresh command therefore asks for a commit at once, but at
 * most one such early commit happens per tick; a command that comes within the tick waits for its end, and shares
 * that commit with whatever else came meanwhile. The tick adapts to what the last early commit carried:
 * <ul>
 *   <li>one command ({@value #QUIET_TICK_MS} ms): the writer is nearly idle, its clients send one request after the
 *   other (kubectl applying a directory, a controller working through its queue), and each waits for the tick;
 *   <li>more ({@value #TICK_MS} ms): commands arrive faster than the writer commits, and a longer tick lets each commit
 *   carry more of them (a 5 ms tick under 100 pods/s quadrupled the commits and the writer fell behind).
 * </ul>
 */
final class CommitPacing {
    /** The tick while commits carry several commands. */
    static final long TICK_MS = 20;
    /** The tick after a commit that carried a single command. */
    static final long QUIET_TICK_MS = 5;

    private long lastEarlyCommit = Long.MIN_VALUE / 2;
    private int sinceCommit;
    private int lastCarried;

    /** A command was decided (fresh or not): it joins the open transaction. */
    void decided() {
        sinceCommit++;
    }

    /**
     * For a fresh command decided at {@code now}: when its transaction should commit, {@code now} itself meaning at
     * once. A later time is the end of the tick that began with the last early commit (counted from then, not from
     * when a deferred commit happens to run, so the grid does not drift).
     */
    long commitDue(long now) {
        long due = lastEarlyCommit + tick();
        return due <= now ? now : due;
    }

    /** An early commit was asked for at {@code at}: it carries the commands decided since the one before. */
    void committed(long at) {
        lastEarlyCommit = at;
        lastCarried = sinceCommit;
        sinceCommit = 0;
    }

    /** The current tick: short after a commit that carried at most one command. */
    long tick() {
        return lastCarried <= 1 ? QUIET_TICK_MS : TICK_MS;
    }
}
