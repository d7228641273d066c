#include "clibxml2.h"

#include <library_loader.h>
#include <pthread.h>

/* libxml2's parser options (xmlParserOption): never fetch anything over the network. DTDs are not
   loaded and entities not substituted unless asked, which we do not. */
#define XML_PARSE_NONET (1 << 11)

static struct {
    almanac_xml_reader *(*reader_for_memory)(const char *, int, const char *, const char *, int);
    int (*read)(almanac_xml_reader *);
    int (*node_type)(almanac_xml_reader *);
    int (*is_empty_element)(almanac_xml_reader *);
    const unsigned char *(*local_name)(almanac_xml_reader *);
    const unsigned char *(*namespace_uri)(almanac_xml_reader *);
    const unsigned char *(*value)(almanac_xml_reader *);
    void (*free_reader)(almanac_xml_reader *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[256] = "libxml2 was not loaded";

static void load(void) {
    const almanac_symbol symbols[] = {
        {"xmlReaderForMemory", (void **)&api.reader_for_memory},
        {"xmlTextReaderRead", (void **)&api.read},
        {"xmlTextReaderNodeType", (void **)&api.node_type},
        {"xmlTextReaderIsEmptyElement", (void **)&api.is_empty_element},
        {"xmlTextReaderConstLocalName", (void **)&api.local_name},
        {"xmlTextReaderConstNamespaceUri", (void **)&api.namespace_uri},
        {"xmlTextReaderConstValue", (void **)&api.value},
        {"xmlFreeTextReader", (void **)&api.free_reader},
    };
    if (almanac_open_library("libxml2.so.2", symbols, sizeof symbols / sizeof *symbols, failure, sizeof failure) == 0) {
        loaded = 0;
    }
}

int almanac_xml_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_xml_error(void) { return failure; }

almanac_xml_reader *almanac_xml_reader_for_memory(const char *buffer, int size) {
    return api.reader_for_memory(buffer, size, NULL, NULL, XML_PARSE_NONET);
}

int almanac_xml_read(almanac_xml_reader *reader) { return api.read(reader); }
int almanac_xml_node_type(almanac_xml_reader *reader) { return api.node_type(reader); }
int almanac_xml_is_empty_element(almanac_xml_reader *reader) { return api.is_empty_element(reader); }
const char *almanac_xml_local_name(almanac_xml_reader *reader) { return (const char *)api.local_name(reader); }
const char *almanac_xml_namespace(almanac_xml_reader *reader) { return (const char *)api.namespace_uri(reader); }
const char *almanac_xml_value(almanac_xml_reader *reader) { return (const char *)api.value(reader); }
void almanac_xml_free(almanac_xml_reader *reader) { api.free_reader(reader); }
