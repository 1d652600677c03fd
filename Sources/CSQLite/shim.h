#ifndef COMICS_CSQLITE_SHIM_H
#define COMICS_CSQLITE_SHIM_H

#include <math.h>
#include <sqlite3.h>

/* SQLITE_TRANSIENT casts -1 to a function pointer, a macro Swift cannot
   import; binding with it makes SQLite copy the bytes before we free them. */
static inline sqlite3_destructor_type comics_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/* sqlite3_db_config is variadic, which Swift cannot call. Defensive mode
   forbids what only a tool repairing a file should do: writing
   sqlite_master, corrupting the file through PRAGMAs. */
static inline int comics_sqlite_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

/* comics_snippet(table, open, close, ellipsis, tokens): FTS5's snippet(),
   in time linear in the text, from the body (column 2 of item_search; a
   table of one column is all text). The built-in one scores a window
   at every match against every other match, so a field that is one word
   repeated costs the square of its length (minutes for 100,000
   characters). This one looks at the first 10,000 matches only, scores
   the window from each by the matches inside it (distinct phrases first;
   a window holds at most `tokens` positions, so this is linear), and
   tokenizes the chosen column once, stopping after the window. */
#define COMICS_SNIPPET_MAX_MATCHES 10000

struct comics_snippet_window {
    const Fts5ExtensionApi *api;
    Fts5Context *fts;
    int start;          /* first token of the window */
    int end;            /* one past its last token */
    int column;
    int token;          /* index of the token being read */
    int first_byte;     /* where the window's text starts and ends */
    int last_byte;
    int next_match;     /* the next instance (in column order) not yet placed */
    int match_count;
    sqlite3_str *marked;
    const char *text;
    const char *open, *close;
    int written;        /* bytes of `text` copied so far */
};

static inline int comics_snippet_is_match(struct comics_snippet_window *w, int token) {
    while (w->next_match < w->match_count) {
        int phrase, column, offset;
        if (w->api->xInst(w->fts, w->next_match, &phrase, &column, &offset) != SQLITE_OK) return 0;
        if (column < w->column || (column == w->column && offset < token)) {
            w->next_match++;
            continue;
        }
        return column == w->column && offset == token;
    }
    return 0;
}

static inline int comics_snippet_token(void *context, int flags, const char *token, int length, int from, int to) {
    struct comics_snippet_window *w = context;
    (void)token;
    (void)length;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    int index = w->token++;
    if (index < w->start) return SQLITE_OK;
    if (index >= w->end) return SQLITE_DONE;
    if (w->first_byte < 0) {
        w->first_byte = from;
        w->written = from;
    }
    if (comics_snippet_is_match(w, index)) {
        sqlite3_str_append(w->marked, w->text + w->written, from - w->written);
        sqlite3_str_appendall(w->marked, w->open);
        sqlite3_str_append(w->marked, w->text + from, to - from);
        sqlite3_str_appendall(w->marked, w->close);
        w->written = to;
    }
    w->last_byte = to;
    return SQLITE_OK;
}

static inline void comics_snippet(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *result,
                                  int argc, sqlite3_value **argv) {
    if (argc != 4) {
        sqlite3_result_error(result, "comics_snippet takes open, close, ellipsis and a token count", -1);
        return;
    }
    const char *open = (const char *)sqlite3_value_text(argv[0]);
    const char *close = (const char *)sqlite3_value_text(argv[1]);
    const char *ellipsis = (const char *)sqlite3_value_text(argv[2]);
    int tokens = sqlite3_value_int(argv[3]);
    if (!open || !close || !ellipsis || tokens < 1) {
        sqlite3_result_error(result, "comics_snippet: bad arguments", -1);
        return;
    }
    int matches = 0;
    if (api->xInstCount(fts, &matches) != SQLITE_OK) matches = 0;
    if (matches > COMICS_SNIPPET_MAX_MATCHES) matches = COMICS_SNIPPET_MAX_MATCHES;

    /* The best window: most distinct phrases, then most matches, then
       earliest. Never in the title or the names (columns 0 and 1 of
       item_search), which the row shows whole beside the snippet: an item
       matched by them alone has none. */
    int first_text_column = api->xColumnCount(fts) > 1 ? 2 : 0;
    int best_column = 0, best_start = 0, best_score = -1;
    for (int i = 0; i < matches; i++) {
        int phrase, column, offset;
        if (api->xInst(fts, i, &phrase, &column, &offset) != SQLITE_OK) break;
        if (column < first_text_column) continue;
        unsigned long long phrases = 0;
        int count = 0, last = offset;
        for (int j = i; j < matches; j++) {
            int other_phrase, other_column, other_offset;
            if (api->xInst(fts, j, &other_phrase, &other_column, &other_offset) != SQLITE_OK) break;
            if (other_column != column || other_offset >= offset + tokens) break;
            phrases |= 1ULL << (other_phrase & 63);
            count++;
            last = other_offset;
        }
        int score = __builtin_popcountll(phrases) * 1000 + count;
        if (score > best_score) {
            best_score = score;
            best_column = column;
            /* The matches roughly in the middle of the window. */
            int lead = (tokens - (last - offset + 1)) / 2;
            best_start = offset - lead > 0 ? offset - lead : 0;
        }
    }

    const char *text = 0;
    int text_length = 0;
    if (best_score < 0 || api->xColumnText(fts, best_column, &text, &text_length) != SQLITE_OK || text == 0) {
        sqlite3_result_text(result, "", 0, SQLITE_STATIC);
        return;
    }
    int column_tokens = 0;
    if (api->xColumnSize(fts, best_column, &column_tokens) != SQLITE_OK) column_tokens = 0;
    if (column_tokens > 0 && best_start + tokens > column_tokens) {
        best_start = column_tokens - tokens > 0 ? column_tokens - tokens : 0;
    }
    struct comics_snippet_window window = {
        .api = api, .fts = fts, .start = best_start, .end = best_start + tokens, .column = best_column,
        .token = 0, .first_byte = -1, .last_byte = -1, .next_match = 0, .match_count = matches,
        .marked = sqlite3_str_new(0), .text = text, .open = open, .close = close, .written = 0,
    };
    if (best_start > 0) sqlite3_str_appendall(window.marked, ellipsis);
    int status = api->xTokenize(fts, text, text_length, &window, comics_snippet_token);
    if (status != SQLITE_OK && status != SQLITE_DONE) {
        sqlite3_free(sqlite3_str_finish(window.marked));
        sqlite3_result_error_code(result, status);
        return;
    }
    if (window.first_byte >= 0) {
        sqlite3_str_append(window.marked, text + window.written, window.last_byte - window.written);
        if (window.token > window.end || (column_tokens > 0 && window.end < column_tokens)) {
            sqlite3_str_appendall(window.marked, ellipsis);
        }
    }
    int length = sqlite3_str_length(window.marked);
    char *snippet = sqlite3_str_finish(window.marked);
    if (snippet == 0) {
        sqlite3_result_text(result, "", 0, SQLITE_STATIC);
        return;
    }
    sqlite3_result_text(result, snippet, length, sqlite3_free);
}

/* comics_rank(item_search, weight, ...): BM25 with each column weighted and
   its length normalisation damped. FTS5's bm25() judges a field against the
   average length of the whole row with b = 0.75, so a one-line alt text
   quoting a phrase once outranks a transcript that is about it and repeats
   its words; here each column is judged against its own average length,
   through its square root, with b = 0.3: length still counts, but a text
   six times the average weighs like one 2.4 times it. As with bm25(), a
   better match is a lower (more negative) number. The phrases' document
   frequencies are counted once per query. */
#define COMICS_RANK_K1 1.2
#define COMICS_RANK_B 0.3

struct comics_rank_query {
    int phrases;
    int columns;
    double *idf;        /* per phrase */
    double *average;    /* average tokens per column */
};

static inline void comics_rank_query_free(void *pointer) {
    struct comics_rank_query *query = pointer;
    if (query == 0) return;
    sqlite3_free(query->idf);
    sqlite3_free(query->average);
    sqlite3_free(query);
}

static inline int comics_rank_count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *context) {
    (void)api;
    (void)fts;
    (*(sqlite3_int64 *)context)++;
    return SQLITE_OK;
}

static inline struct comics_rank_query *comics_rank_query(const Fts5ExtensionApi *api, Fts5Context *fts, int *status) {
    struct comics_rank_query *query = api->xGetAuxdata(fts, 0);
    if (query) return query;
    query = sqlite3_malloc(sizeof *query);
    if (query == 0) {
        *status = SQLITE_NOMEM;
        return 0;
    }
    query->phrases = api->xPhraseCount(fts);
    query->columns = api->xColumnCount(fts);
    query->idf = sqlite3_malloc64(sizeof(double) * (query->phrases > 0 ? query->phrases : 1));
    query->average = sqlite3_malloc64(sizeof(double) * (query->columns > 0 ? query->columns : 1));
    if (query->idf == 0 || query->average == 0) {
        comics_rank_query_free(query);
        *status = SQLITE_NOMEM;
        return 0;
    }
    sqlite3_int64 rows = 0;
    if ((*status = api->xRowCount(fts, &rows)) != SQLITE_OK) {
        comics_rank_query_free(query);
        return 0;
    }
    for (int column = 0; column < query->columns; column++) {
        sqlite3_int64 total = 0;
        if ((*status = api->xColumnTotalSize(fts, column, &total)) != SQLITE_OK) {
            comics_rank_query_free(query);
            return 0;
        }
        query->average[column] = rows > 0 && total > 0 ? (double)total / (double)rows : 1.0;
    }
    for (int phrase = 0; phrase < query->phrases; phrase++) {
        sqlite3_int64 holding = 0;
        if ((*status = api->xQueryPhrase(fts, phrase, &holding, comics_rank_count_row)) != SQLITE_OK) {
            comics_rank_query_free(query);
            return 0;
        }
        double idf = log(((double)rows - (double)holding + 0.5) / ((double)holding + 0.5));
        /* A phrase most rows hold still counts for a little, as in bm25(). */
        query->idf[phrase] = idf > 1e-6 ? idf : 1e-6;
    }
    if ((*status = api->xSetAuxdata(fts, query, comics_rank_query_free)) != SQLITE_OK) return 0;
    return query;
}

static inline void comics_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *result,
                               int argc, sqlite3_value **argv) {
    int status = SQLITE_OK;
    struct comics_rank_query *query = comics_rank_query(api, fts, &status);
    if (query == 0) {
        sqlite3_result_error_code(result, status);
        return;
    }
    int cells = query->phrases * query->columns;
    double *frequency = sqlite3_malloc64(sizeof(double) * (cells > 0 ? cells : 1));
    if (frequency == 0) {
        sqlite3_result_error_nomem(result);
        return;
    }
    for (int cell = 0; cell < cells; cell++) frequency[cell] = 0;
    int instances = 0;
    if (api->xInstCount(fts, &instances) != SQLITE_OK) instances = 0;
    for (int i = 0; i < instances; i++) {
        int phrase, column, offset;
        if (api->xInst(fts, i, &phrase, &column, &offset) != SQLITE_OK) break;
        if (phrase >= 0 && phrase < query->phrases && column >= 0 && column < query->columns) {
            frequency[phrase * query->columns + column] += 1;
        }
    }
    double score = 0;
    for (int column = 0; column < query->columns; column++) {
        double weight = column < argc ? sqlite3_value_double(argv[column]) : 1.0;
        if (weight == 0) continue;
        int size = 0;
        if (api->xColumnSize(fts, column, &size) != SQLITE_OK) size = 0;
        double norm = 1 - COMICS_RANK_B + COMICS_RANK_B * sqrt((double)size / query->average[column]);
        for (int phrase = 0; phrase < query->phrases; phrase++) {
            double f = frequency[phrase * query->columns + column];
            if (f > 0) score += weight * query->idf[phrase] * f * (COMICS_RANK_K1 + 1) / (f + COMICS_RANK_K1 * norm);
        }
    }
    sqlite3_free(frequency);
    sqlite3_result_double(result, -score);
}

/* Registers comics_snippet and comics_rank on the connection; SQLITE_OK or
   an error code. */
static inline int comics_sqlite_register_search_functions(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    int status = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
    if (status != SQLITE_OK) return status;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (api == 0 || api->iVersion < 2) return SQLITE_ERROR;
    status = api->xCreateFunction(api, "comics_snippet", 0, comics_snippet, 0);
    if (status != SQLITE_OK) return status;
    return api->xCreateFunction(api, "comics_rank", 0, comics_rank, 0);
}

#endif
