#ifndef ALMANAC_CLIBXML2_H
#define ALMANAC_CLIBXML2_H

/* libxml2's pull parser (xmlTextReader) for CalDAV and its HTML parser for the read tool, opened
   with dlopen on first use. Foundation's XMLParser
   (FoundationXML) linked libxml2 and ICU's common library into every `tools` start (~0.5 ms) for
   the few WebDAV bodies a CalDAV sync reads. clibxml2.c forwards libxml2's functions under their
   own names, checked against libxml2's real headers (the CLibraryLoader pattern); those headers
   stay out of this one, as they pull in ICU's and live outside the default include path, which
   every Swift module importing this one would then need. */

/* An xmlTextReader, and the first error it met. */
typedef struct almanac_xml_reader almanac_xml_reader;

/* The reader's node types we act on (libxml2's xmlReaderTypes). */
enum {
    ALMANAC_XML_ELEMENT = 1,
    ALMANAC_XML_TEXT = 3,
    ALMANAC_XML_CDATA = 4,
    ALMANAC_XML_SIGNIFICANT_WHITESPACE = 14,
    ALMANAC_XML_END_ELEMENT = 15,
};

/* Opens libxml2.so.16 or libxml2.so.2 once (thread-safe) and checks its version. Returns 0 when
   ready, else -1 and almanac_xml_error() says why. No other function here may be called before it
   returned 0. */
int almanac_xml_load(void);
/* Why almanac_xml_load failed; never NULL. */
const char *almanac_xml_error(void);
/* The soname and version opened ("libxml2.so.2 2.9.14"), once almanac_xml_load returned 0. */
const char *almanac_xml_opened(void);

/* A reader over `size` bytes at `buffer` (kept by the caller until almanac_xml_free): no network
   access, no DTD loading, no entity substitution, and nothing printed: libxml2's messages are
   kept, the first as almanac_xml_reader_error. NULL when it cannot be made. */
almanac_xml_reader *almanac_xml_reader_for_memory(const char *buffer, int size);
/* Moves to the next node: 1 when there is one, 0 at the end, -1 on malformed XML. */
int almanac_xml_read(almanac_xml_reader *reader);
int almanac_xml_node_type(almanac_xml_reader *reader);
int almanac_xml_is_empty_element(almanac_xml_reader *reader);
/* UTF-8, owned by the reader and valid until the next read; NULL when absent. */
const char *almanac_xml_local_name(almanac_xml_reader *reader);
const char *almanac_xml_namespace(almanac_xml_reader *reader);
const char *almanac_xml_value(almanac_xml_reader *reader);
/* libxml2's first error for this reader on one line ("line 3: Premature end of data ..."), or
   NULL when there was none. */
const char *almanac_xml_reader_error(almanac_xml_reader *reader);
void almanac_xml_free(almanac_xml_reader *reader);

/* libxml2's HTML parser, for the reader tool: its events (below), or, as the reference the tests
   compare them with, libxml2's own tree walked in place.
   Nodes and attributes are libxml2's own structs, opaque here. */
typedef struct almanac_html_document almanac_html_document;
typedef struct _xmlNode almanac_html_node;
typedef struct _xmlAttr almanac_html_attribute;

/* libxml2's node kinds we act on (xmlElementType). */
enum {
    ALMANAC_HTML_ELEMENT = 1,
    ALMANAC_HTML_TEXT = 3,
    ALMANAC_HTML_CDATA = 4,
    ALMANAC_HTML_COMMENT = 8,
};

/* Parses `size` bytes of HTML in `encoding` (an IANA name; NULL lets libxml2 read the page's own
   meta). No network, nothing printed. NULL when nothing could be parsed. */
almanac_html_document *almanac_html_parse(const char *buffer, int size, const char *encoding);
void almanac_html_free(almanac_html_document *document);
/* The document's first top-level node (a DTD, a comment or <html>); NULL when empty. */
const almanac_html_node *almanac_html_root(const almanac_html_document *document);
int almanac_html_node_kind(const almanac_html_node *node);
/* Lower-case tag name of an element; UTF-8, owned by the document. */
const char *almanac_html_node_name(const almanac_html_node *node);
/* The text of a text, CDATA or comment node; NULL for others. */
const char *almanac_html_node_text(const almanac_html_node *node);
const almanac_html_node *almanac_html_first_child(const almanac_html_node *node);
const almanac_html_node *almanac_html_next(const almanac_html_node *node);
const almanac_html_attribute *almanac_html_first_attribute(const almanac_html_node *node);
const almanac_html_attribute *almanac_html_next_attribute(const almanac_html_attribute *attribute);
const char *almanac_html_attribute_name(const almanac_html_attribute *attribute);
/* The value, "" for a bare attribute (`hidden`). */
const char *almanac_html_attribute_value(const almanac_html_attribute *attribute);

/* Where an element starting at the document's top level goes, as libxml2's tree builder puts it. */
enum {
    /* Inside the innermost open element. */
    ALMANAC_HTML_INSIDE = 0,
    /* The document's first child. */
    ALMANAC_HTML_FIRST = 1,
    /* The last child of that first child (an element): a second <html> lands inside the first. */
    ALMANAC_HTML_UNDER_FIRST = 2,
    /* A child of the document (its first child is a DOCTYPE or a comment). */
    ALMANAC_HTML_TOP = 3,
};

/* What a parse tells its caller, in document order, with `context` as the first argument. */
typedef struct almanac_html_events {
    void *context;
    /* An element starts: its lower-case name, its attributes as name, value pairs ending in NULL
       (UTF-8, entities replaced; a bare attribute's value is "", HTML 4's boolean ones their own
       name), and where it goes (ALMANAC_HTML_INSIDE...). Valid only during the call. */
    void (*start)(void *context, const char *name, const char *const *attributes, int place);
    /* The innermost open element ends (every start has its end, unclosed ones at the end). */
    void (*end)(void *context);
    /* `length` bytes of UTF-8 text inside the innermost open element, not NUL-terminated; one run
       of text may come in several calls. Script and style contents come as text too. */
    void (*text)(void *context, const char *text, int length);
} almanac_html_events;

/* Parses `size` bytes of HTML in `encoding` (as almanac_html_parse) and hands `events` what it
   finds, building no tree. 0 when done, -1 when no parser could be made. */
int almanac_html_parse_events(const char *buffer, int size, const char *encoding, const almanac_html_events *events);

/* The news tool's XML parse: what a recovering SAX2 parse meets, in document order, with `context`
   as the first argument. Names and values are UTF-8, valid only during the call. */
typedef struct almanac_xml_events {
    void *context;
    /* An element starts: its local name, namespace URI ("" when none), prefix ("" when none) and
       attributes as (local name, namespace URI or "", value) triples ending in NULL. */
    void (*start)(void *context, const char *name, const char *namespace_uri, const char *prefix,
        const char *const *attributes);
    /* The innermost open element ends. */
    void (*end)(void *context);
    /* `length` bytes of text or CDATA inside the open elements, not NUL-terminated; one run of
       text may come in several calls. */
    void (*text)(void *context, const char *text, int length);
} almanac_xml_events;

/* Parses `size` bytes of XML (encoding from the BOM or declaration) in recovery mode: no network,
   no entities, nothing printed. 0 when well-formed, 1 when recovered from errors (the first in
   `error`, on one line), -1 when no parser could be made. */
int almanac_xml_parse_events(const char *buffer, int size, const almanac_xml_events *events, char *error,
    int error_size);

#endif
