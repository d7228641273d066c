#include "clibxml2.h"

/* The static switch keeps export markers (libxml2 2.14's headers have them) off the hidden
   forwarders below. `headers/libxml` links to the system's /usr/include/libxml2/libxml (see
   Package.swift): only this file reads libxml2's headers. */
#define LIBXML_STATIC
#include <libxml/HTMLparser.h>
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
    X(htmlDocPtr, htmlReadMemory, (const char *a, int b, const char *c, const char *d, int e), (a, b, c, d, e))

#define ALMANAC_XML_PROCEDURES(X)                                                                  \
    X(xmlFreeTextReader, (xmlTextReaderPtr a), (a))                                                \
    X(xmlTextReaderSetStructuredErrorHandler, (xmlTextReaderPtr a, xmlStructuredErrorFunc b, void *c), (a, b, c)) \
    X(xmlSetGenericErrorFunc, (void *a, xmlGenericErrorFunc b), (a, b))                            \
    X(xmlSetStructuredErrorFunc, (void *a, xmlStructuredErrorFunc b), (a, b))                      \
    X(xmlFreeDoc, (xmlDocPtr a), (a))

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

/* Keeps the reader's first error, on one line, for the caller to report. */
static void keep_first_error(void *context, almanac_xml_error_ref error) {
    almanac_xml_reader *reader = context;
    if (reader->error[0] != '\0' || error == NULL || error->level < XML_ERR_ERROR) return;
    const char *message = error->message != NULL ? error->message : "malformed XML";
    if (error->line > 0) {
        snprintf(reader->error, sizeof reader->error, "line %d: %s", error->line, message);
    } else {
        snprintf(reader->error, sizeof reader->error, "%s", message);
    }
    /* libxml2's messages end in a newline and may hold more. */
    for (char *character = reader->error; *character != '\0'; character++) {
        if (*character == '\n' || *character == '\r' || *character == '\t') *character = ' ';
    }
    for (size_t end = strlen(reader->error); end > 0 && reader->error[end - 1] == ' '; end--) {
        reader->error[end - 1] = '\0';
    }
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

almanac_html_document *almanac_html_parse(const char *buffer, int size, const char *encoding) {
    xmlSetGenericErrorFunc(NULL, ignore_message);
    xmlSetStructuredErrorFunc(NULL, ignore_error);
    almanac_html_document *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    /* RECOVER: pages are rarely valid; NONET: no DTD or entity fetched; NOERROR/NOWARNING:
       nothing printed; COMPACT: small text nodes stored inline (fewer allocations). A given
       encoding overrides the page's own meta (the caller read headers, BOM and meta first). */
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
        | HTML_PARSE_COMPACT | HTML_PARSE_NODEFDTD;
    if (encoding != NULL) options |= HTML_PARSE_IGNORE_ENC;
    result->document = htmlReadMemory(buffer, size, NULL, encoding, options);
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
