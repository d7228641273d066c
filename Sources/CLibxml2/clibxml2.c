#include "clibxml2.h"

/* The static switch keeps export markers (libxml2 2.14's headers have them) off the hidden
   forwarders below. `headers/libxml` links to the system's /usr/include/libxml2/libxml (see
   Package.swift): only this file reads libxml2's headers. */
#define LIBXML_STATIC
#include <libxml/HTMLparser.h>
#include <libxml/encoding.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include <library_loader.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The libxml2 functions Almanac calls (see CLibraryLoader): return type, name, parameters,
   arguments. */
#define ALMANAC_XML_FUNCTIONS(X)                                                                   \
    X(xmlTextReaderPtr, xmlReaderForMemory, (const char *a, int b, const char *c, const char *d, int e), (a, b, c, d, e)) \
    X(int, xmlTextReaderRead, (xmlTextReaderPtr a), (a))                                           \
    X(int, xmlTextReaderNodeType, (xmlTextReaderPtr a), (a))                                       \
    X(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr a), (a))                                 \
    X(const xmlChar *, xmlTextReaderConstLocalName, (xmlTextReaderPtr a), (a))                     \
    X(const xmlChar *, xmlTextReaderConstNamespaceUri, (xmlTextReaderPtr a), (a))                  \
    X(const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr a), (a))                     \
    X(htmlDocPtr, htmlReadMemory, (const char *a, int b, const char *c, const char *d, int e), (a, b, c, d, e)) \
    X(htmlParserCtxtPtr, htmlCreateMemoryParserCtxt, (const char *a, int b), (a, b))                \
    X(int, htmlCtxtUseOptions, (htmlParserCtxtPtr a, int b), (a, b))                               \
    X(xmlCharEncodingHandlerPtr, xmlFindCharEncodingHandler, (const char *a), (a))                 \
    X(int, xmlSwitchToEncoding, (xmlParserCtxtPtr a, xmlCharEncodingHandlerPtr b), (a, b))         \
    X(int, htmlParseDocument, (htmlParserCtxtPtr a), (a))                                          \
    X(xmlParserCtxtPtr, xmlCreateMemoryParserCtxt, (const char *a, int b), (a, b))                 \
    X(int, xmlCtxtUseOptions, (xmlParserCtxtPtr a, int b), (a, b))                                 \
    X(int, xmlParseDocument, (xmlParserCtxtPtr a), (a))

#define ALMANAC_XML_PROCEDURES(X)                                                                  \
    X(xmlFreeTextReader, (xmlTextReaderPtr a), (a))                                                \
    X(xmlTextReaderSetStructuredErrorHandler, (xmlTextReaderPtr a, xmlStructuredErrorFunc b, void *c), (a, b, c)) \
    X(xmlSetGenericErrorFunc, (void *a, xmlGenericErrorFunc b), (a, b))                            \
    X(xmlSetStructuredErrorFunc, (void *a, xmlStructuredErrorFunc b), (a, b))                      \
    X(xmlFreeDoc, (xmlDocPtr a), (a))                                                              \
    X(htmlFreeParserCtxt, (htmlParserCtxtPtr a), (a))                                              \
    X(xmlFreeParserCtxt, (xmlParserCtxtPtr a), (a))

static struct {
    ALMANAC_XML_FUNCTIONS(ALMANAC_POINTER)
    ALMANAC_XML_PROCEDURES(ALMANAC_POINTER_VOID)
    /* A variable ("20914"), a macro over a per-thread copy in 2.9's headers, so looked up apart. */
    const char *const *parser_version;
} api;

ALMANAC_XML_FUNCTIONS(ALMANAC_FORWARD)
ALMANAC_XML_PROCEDURES(ALMANAC_FORWARD_VOID)

/* libxml2 2.14 renamed libxml2.so.2 to libxml2.so.16 (it dropped deprecated symbols); the reader
   functions used here and xmlError kept their ABI. */
static const char *const sonames[] = {"libxml2.so.16", "libxml2.so.2", NULL};

/* 2.9.0: the oldest series a supported distribution still patches (Debian 12 has 2.9.14, Ubuntu
   22.04 2.9.13, RHEL 8 2.9.7); the releases before it miss years of parser security fixes. */
#define ALMANAC_XML_MINIMUM 20900

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static const char *soname = "libxml2";
static char opened[96] = "libxml2";
static char failure[256] = "libxml2 was not loaded";
/* The version opened (20914 for 2.9.14). */
static int version_number;

static void load(void) {
    const almanac_symbol symbols[] = {
        ALMANAC_XML_FUNCTIONS(ALMANAC_SYMBOL) ALMANAC_XML_PROCEDURES(ALMANAC_SYMBOL_VOID)
        {"xmlParserVersion", (void **)&api.parser_version},
    };
    if (almanac_open_library(sonames, symbols, sizeof symbols / sizeof *symbols, &soname, failure, sizeof failure) != 0) {
        return;
    }
    /* "20914", perhaps with a suffix such as "-GITv2.9.14". */
    int version = *api.parser_version != NULL ? atoi(*api.parser_version) : 0;
    int major = version / 10000, minor = version / 100 % 100, micro = version % 100;
    if (version < ALMANAC_XML_MINIMUM) {
        snprintf(failure, sizeof failure, "%s is %d.%d.%d; Almanac needs 2.9.0 or later", soname, major, minor, micro);
        return;
    }
    snprintf(opened, sizeof opened, "%s %d.%d.%d", soname, major, minor, micro);
    version_number = version;
    loaded = 0;
}

int almanac_xml_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_xml_error(void) { return failure; }

const char *almanac_xml_opened(void) { return opened; }

struct almanac_xml_reader {
    xmlTextReaderPtr reader;
    char error[256];
};

/* libxml2 2.12 made the structured handler's error const; match the headers we build against. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *almanac_xml_error_ref;
#else
typedef xmlErrorPtr almanac_xml_error_ref;
#endif

/* libxml2's default handlers print to stderr; these drop what no reader of ours asked for. */
static void ignore_message(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static void ignore_error(void *context, almanac_xml_error_ref error) {
    (void)context;
    (void)error;
}

/* Writes libxml2's first error into `buffer` (size bytes) on one line, unless one is kept already:
 * its messages end in a newline and may hold more. Shared by the pull reader and the SAX parse. */
static void keep_first_error_in(char *buffer, size_t size, almanac_xml_error_ref error) {
    if (buffer[0] != '\0' || error == NULL || error->level < XML_ERR_ERROR) return;
    const char *message = error->message != NULL ? error->message : "malformed XML";
    if (error->line > 0) {
        snprintf(buffer, size, "line %d: %s", error->line, message);
    } else {
        snprintf(buffer, size, "%s", message);
    }
    for (char *character = buffer; *character != '\0'; character++) {
        if (*character == '\n' || *character == '\r' || *character == '\t') *character = ' ';
    }
    for (size_t end = strlen(buffer); end > 0 && buffer[end - 1] == ' '; end--) {
        buffer[end - 1] = '\0';
    }
}

/* Keeps the reader's first error, on one line, for the caller to report. */
static void keep_first_error(void *context, almanac_xml_error_ref error) {
    almanac_xml_reader *reader = context;
    keep_first_error_in(reader->error, sizeof reader->error, error);
}

almanac_xml_reader *almanac_xml_reader_for_memory(const char *buffer, int size) {
    /* libxml2's global handlers are per thread: silence the one making (and so using) the reader,
       for messages raised outside the reader's own handler. */
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
    almanac_xml_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->reader = xmlReaderForMemory(buffer, size, NULL, NULL, XML_PARSE_NONET);
    if (reader->reader == NULL) {
        free(reader);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(reader->reader, keep_first_error, reader);
    return reader;
}

int almanac_xml_read(almanac_xml_reader *reader) { return xmlTextReaderRead(reader->reader); }
int almanac_xml_node_type(almanac_xml_reader *reader) { return xmlTextReaderNodeType(reader->reader); }
int almanac_xml_is_empty_element(almanac_xml_reader *reader) { return xmlTextReaderIsEmptyElement(reader->reader); }
const char *almanac_xml_local_name(almanac_xml_reader *reader) {
    return (const char *)xmlTextReaderConstLocalName(reader->reader);
}
const char *almanac_xml_namespace(almanac_xml_reader *reader) {
    return (const char *)xmlTextReaderConstNamespaceUri(reader->reader);
}
const char *almanac_xml_value(almanac_xml_reader *reader) {
    return (const char *)xmlTextReaderConstValue(reader->reader);
}
const char *almanac_xml_reader_error(almanac_xml_reader *reader) {
    return reader->error[0] != '\0' ? reader->error : NULL;
}

void almanac_xml_free(almanac_xml_reader *reader) {
    xmlFreeTextReader(reader->reader);
    free(reader);
}

/* The HTML parser (the reader tool): a tree walked from Swift through the accessors below. The
   nodes are libxml2's own; they are read in place, never copied. */
struct almanac_html_document {
    htmlDocPtr document;
};

/* RECOVER: pages are rarely valid; NONET: no DTD or entity fetched; NOERROR/NOWARNING: nothing
   printed; COMPACT: small text nodes stored inline (fewer allocations); NODEFDTD: no DTD made up. A
   given encoding overrides the page's own meta (the caller read headers, BOM and meta first). */
static int html_options(const char *encoding) {
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
        | HTML_PARSE_COMPACT | HTML_PARSE_NODEFDTD;
    return encoding != NULL ? options | HTML_PARSE_IGNORE_ENC : options;
}

almanac_html_document *almanac_html_parse(const char *buffer, int size, const char *encoding) {
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
    almanac_html_document *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    result->document = htmlReadMemory(buffer, size, NULL, encoding, html_options(encoding));
    if (result->document == NULL) {
        free(result);
        return NULL;
    }
    return result;
}

void almanac_html_free(almanac_html_document *document) {
    xmlFreeDoc(document->document);
    free(document);
}

const almanac_html_node *almanac_html_root(const almanac_html_document *document) {
    return document->document->children;
}

int almanac_html_node_kind(const almanac_html_node *node) { return (int)node->type; }

const char *almanac_html_node_name(const almanac_html_node *node) { return (const char *)node->name; }

const char *almanac_html_node_text(const almanac_html_node *node) { return (const char *)node->content; }

const almanac_html_node *almanac_html_first_child(const almanac_html_node *node) {
    /* Attribute and entity nodes keep other things under `children`; only elements and the
       document have child nodes we walk. */
    return node->type == XML_ELEMENT_NODE || node->type == XML_DOCUMENT_NODE || node->type == XML_HTML_DOCUMENT_NODE
        ? node->children : NULL;
}

const almanac_html_node *almanac_html_next(const almanac_html_node *node) { return node->next; }

const almanac_html_attribute *almanac_html_first_attribute(const almanac_html_node *node) {
    return node->type == XML_ELEMENT_NODE ? node->properties : NULL;
}

const almanac_html_attribute *almanac_html_next_attribute(const almanac_html_attribute *attribute) {
    return attribute->next;
}

const char *almanac_html_attribute_name(const almanac_html_attribute *attribute) {
    return (const char *)attribute->name;
}

const char *almanac_html_attribute_value(const almanac_html_attribute *attribute) {
    /* The HTML parser stores a value as one text child (entities already replaced); a boolean
       attribute (`hidden`) has none. */
    const xmlNode *child = attribute->children;
    if (child == NULL || child->content == NULL) return "";
    return (const char *)child->content;
}

/* The read tool's parse: the same recovering parse as htmlReadMemory's, with libxml2's SAX events
   handed to the caller instead of libxml2's tree builder (SAX2.c), so no tree of libxml2's is made,
   walked and freed (it was about half of libxml2's time). The events say what that tree builder
   would have made of them, so the caller builds the same tree (a test compares the two). */
struct html_events {
    const almanac_html_events *handler;
    htmlParserCtxtPtr parser;
    /* Open elements, as the tree builder's node stack counts them. */
    int depth;
    /* The document's first child: 0 none yet, 1 an element, 2 something else (a DOCTYPE, which
       libxml2 always puts first, a comment or a processing instruction). */
    int first;
};

/* HTML 4's boolean attributes: the tree builder gives a bare one its own name as its value
   (`selected` reads "selected"), any other bare attribute no value (""). */
static const char *const boolean_attributes[] = {
    "checked", "compact", "declare", "defer", "disabled", "ismap", "multiple", "nohref", "noresize", "noshade",
    "nowrap", "readonly", "selected", NULL,
};

static const char *bare_value(const char *name) {
    for (const char *const *known = boolean_attributes; *known != NULL; known++) {
        if (strcmp(*known, name) == 0) return name;
    }
    return "";
}

/* The tree builder names an element by its local part (xmlSplitQName: `wb:follow-button` is
   `follow-button`; `:x` and `x:` stay whole). */
static const char *local_name(const char *name) {
    if (name[0] == ':') return name;
    const char *colon = strchr(name, ':');
    return colon == NULL || colon[1] == '\0' ? name : colon + 1;
}

static int ascii_lower(int character) { return character >= 'A' && character <= 'Z' ? character + 32 : character; }

/* Whether `text` holds `needle` (lower-case), ASCII letters compared without case. */
static int contains_ignoring_case(const char *text, const char *needle) {
    size_t length = strlen(needle);
    for (; *text != '\0'; text++) {
        size_t index = 0;
        while (index < length && text[index] != '\0' && ascii_lower((unsigned char)text[index]) == needle[index]) {
            index++;
        }
        if (index == length) return 1;
    }
    return 0;
}

/* Script and style contents nobody reads (every style, every script but JSON-LD) are skipped with
   one search instead of htmlParseScript's character-by-character scan, a third of libxml2's time
   on pages full of inline JavaScript. Called as the start tag's event arrives, while the parser
   stands on its `>`: the `>` is written again just before the `</script` (or `</style`) that
   htmlParseScript would have stopped at (the first one, any case, in recovery mode), and the
   parser moved there, so it consumes that `>` and finds the end tag next. What it skips only
   ever became the dropped element's text. It is done only where that holds: libxml2 before 2.14
   (whose tokenizer reads scripts the old way), a converted input (libxml2's own writable copy,
   valid UTF-8, where a bad byte cannot switch the page to Latin-1), the end tag in the buffer, no
   NUL before it and no `<` first (a tag there may close the script early). */
static void skip_unread_contents(struct html_events *events, const char *name, const char *const *pairs) {
    size_t length;
    if (strcmp(name, "script") == 0) {
        for (size_t index = 0; pairs[index] != NULL; index += 2) {
            if (strcmp(pairs[index], "type") == 0 && contains_ignoring_case(pairs[index + 1], "ld+json")) return;
        }
        length = 6;
    } else if (strcmp(name, "style") == 0) {
        length = 5;
    } else {
        return;
    }
    if (version_number >= 21400 || events->parser == NULL) return;
    xmlParserInputPtr input = events->parser->input;
    if (input == NULL || input->buf == NULL || input->buf->encoder == NULL || input->cur == NULL) return;
    xmlChar *start = (xmlChar *)input->cur;
    const xmlChar *end = input->end;
    if (start + 1 >= end || *start != '>' || start[1] == '<') return;
    const xmlChar *at = start + 1;
    while (at + 2 + length <= end) {
        at = memchr(at, '<', (size_t)(end - at));
        if (at == NULL || at + 2 + length > end) return;
        size_t index = 0;
        if (at[1] == '/') {
            while (index < length && ascii_lower(at[2 + index]) == name[index]) index++;
        }
        if (index == length) {
            if (memchr(start + 1, '\0', (size_t)(at - (start + 1))) != NULL) return;
            xmlChar *close = (xmlChar *)at - 1;
            if (close == start) return;
            *close = '>';
            input->cur = close;
            return;
        }
        at++;
    }
}

static void on_start(void *context, const xmlChar *name, const xmlChar **attributes) {
    struct html_events *events = context;
    /* An element opened at the top goes where the tree builder puts it: the first child of the
       document, else under the document's first child when that is an element, else beside it. */
    int place = ALMANAC_HTML_INSIDE;
    if (events->depth == 0) {
        if (events->first == 0) {
            events->first = 1;
            place = ALMANAC_HTML_FIRST;
        } else {
            place = events->first == 1 ? ALMANAC_HTML_UNDER_FIRST : ALMANAC_HTML_TOP;
        }
    }
    events->depth++;
    size_t count = 0;
    while (attributes != NULL && attributes[count * 2] != NULL) count++;
    const char *local[2 * 16 + 1];
    const char **pairs = count <= 16 ? local : malloc((2 * count + 1) * sizeof *pairs);
    if (pairs == NULL) {
        pairs = local;
        count = 0;
    }
    for (size_t index = 0; index < count; index++) {
        const char *attribute = (const char *)attributes[index * 2];
        const char *value = (const char *)attributes[index * 2 + 1];
        pairs[index * 2] = attribute;
        pairs[index * 2 + 1] = value != NULL ? value : bare_value(attribute);
    }
    pairs[count * 2] = NULL;
    const char *element = local_name((const char *)name);
    events->handler->start(events->handler->context, element, pairs, place);
    /* libxml2 reads a raw-text element by its full name (`x:script` is markup). */
    skip_unread_contents(events, (const char *)name, pairs);
    if (pairs != local) free(pairs);
}

static void on_end(void *context, const xmlChar *name) {
    (void)name;
    struct html_events *events = context;
    if (events->depth == 0) return;
    events->depth--;
    events->handler->end(events->handler->context);
}

static void on_text(void *context, const xmlChar *text, int length) {
    struct html_events *events = context;
    /* The tree builder drops text outside every element. */
    if (events->depth == 0 || length <= 0) return;
    events->handler->text(events->handler->context, (const char *)text, length);
}

static void on_other(struct html_events *events) {
    if (events->depth == 0 && events->first == 0) events->first = 2;
}

static void on_comment(void *context, const xmlChar *text) {
    (void)text;
    on_other(context);
}

static void on_instruction(void *context, const xmlChar *target, const xmlChar *data) {
    (void)target;
    (void)data;
    on_other(context);
}

static void on_doctype(void *context, const xmlChar *name, const xmlChar *external, const xmlChar *system) {
    (void)name;
    (void)external;
    (void)system;
    struct html_events *events = context;
    events->first = 2;
}

int almanac_html_parse_events(const char *buffer, int size, const char *encoding, const almanac_html_events *handler) {
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
    htmlParserCtxtPtr context = htmlCreateMemoryParserCtxt(buffer, size);
    if (context == NULL) return -1;
    struct html_events events = {handler, context, 0, 0};
    /* The context's own copy of the handler: only these events, no tree. */
    memset(context->sax, 0, sizeof *context->sax);
    context->sax->initialized = 1;
    context->sax->startElement = on_start;
    context->sax->endElement = on_end;
    context->sax->characters = on_text;
    context->sax->cdataBlock = on_text;
    context->sax->comment = on_comment;
    context->sax->processingInstruction = on_instruction;
    context->sax->internalSubset = on_doctype;
    context->userData = &events;
    htmlCtxtUseOptions(context, html_options(encoding));
    if (encoding != NULL) {
        xmlCharEncodingHandlerPtr converter = xmlFindCharEncodingHandler(encoding);
        if (converter != NULL) xmlSwitchToEncoding(context, converter);
    }
    htmlParseDocument(context);
    htmlFreeParserCtxt(context);
    return 0;
}

/* The news tool's feeds: libxml2's recovering XML parser with its SAX2 events handed to the
   caller (namespaces resolved, attributes as triples), no tree built. Feeds in the wild are often
   not well-formed (a raw `&` in a link); recovery reads on, as feed readers do, and the first
   error is kept for the caller to mention. No entity is declared or loaded (no getEntity handler,
   NONET), so neither external entities nor entity expansion bombs can do anything. */
struct xml_events {
    const almanac_xml_events *handler;
    char error[256];
};

static void keep_first_parse_error(void *context, almanac_xml_error_ref error) {
    struct xml_events *events = context;
    keep_first_error_in(events->error, sizeof events->error, error);
}

static void on_xml_start(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
    int namespace_count, const xmlChar **namespaces, int count, int defaulted, const xmlChar **attributes) {
    (void)namespace_count;
    (void)namespaces;
    (void)defaulted;
    struct xml_events *events = context;
    /* libxml2 gives (local, prefix, URI, value start, value end) per attribute; the caller gets
       (local, URI or "", value) with each value NUL-terminated. */
    const char *small[3 * 8 + 1];
    char *values_small[8];
    const char **triples = count <= 8 ? small : malloc((3 * (size_t)count + 1) * sizeof *triples);
    char **values = count <= 8 ? values_small : malloc((size_t)count * sizeof *values);
    if (triples == NULL || values == NULL) {
        if (triples != small) free(triples);
        if (values != values_small) free(values);
        triples = small;
        values = values_small;
        count = 0;
    }
    int made = 0;
    for (int index = 0; index < count; index++) {
        const xmlChar *start = attributes[index * 5 + 3], *end = attributes[index * 5 + 4];
        size_t length = start != NULL && end != NULL && end >= start ? (size_t)(end - start) : 0;
        char *value = malloc(length + 1);
        if (value == NULL) break;
        if (length > 0) memcpy(value, start, length);
        value[length] = '\0';
        values[made] = value;
        triples[made * 3] = (const char *)attributes[index * 5];
        triples[made * 3 + 1] = attributes[index * 5 + 2] != NULL ? (const char *)attributes[index * 5 + 2] : "";
        triples[made * 3 + 2] = value;
        made++;
    }
    triples[made * 3] = NULL;
    events->handler->start(events->handler->context, (const char *)local, uri != NULL ? (const char *)uri : "",
        prefix != NULL ? (const char *)prefix : "", triples);
    for (int index = 0; index < made; index++) free(values[index]);
    if (triples != small) free(triples);
    if (values != values_small) free(values);
}

static void on_xml_end(void *context, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)local;
    (void)prefix;
    (void)uri;
    struct xml_events *events = context;
    events->handler->end(events->handler->context);
}

static void on_xml_text(void *context, const xmlChar *text, int length) {
    struct xml_events *events = context;
    if (length <= 0) return;
    events->handler->text(events->handler->context, (const char *)text, length);
}

int almanac_xml_parse_events(const char *buffer, int size, const almanac_xml_events *handler, char *error,
    int error_size) {
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
    if (error != NULL && error_size > 0) error[0] = '\0';
    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(buffer, size);
    if (context == NULL) return -1;
    struct xml_events events;
    memset(&events, 0, sizeof events);
    events.handler = handler;
    /* The context's own copy of the handler: only these events, no tree, no entities. */
    memset(context->sax, 0, sizeof *context->sax);
    context->sax->initialized = XML_SAX2_MAGIC;
    context->sax->startElementNs = on_xml_start;
    context->sax->endElementNs = on_xml_end;
    context->sax->characters = on_xml_text;
    context->sax->cdataBlock = on_xml_text;
    context->sax->serror = keep_first_parse_error;
    context->sax->warning = ignore_message;
    context->sax->error = ignore_message;
    context->sax->fatalError = ignore_message;
    context->userData = &events;
    xmlCtxtUseOptions(context, XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlParseDocument(context);
    int wellFormed = context->wellFormed;
    xmlFreeParserCtxt(context);
    if (error != NULL && error_size > 0 && events.error[0] != '\0') {
        snprintf(error, (size_t)error_size, "%s", events.error);
    }
    return wellFormed ? 0 : 1;
}
