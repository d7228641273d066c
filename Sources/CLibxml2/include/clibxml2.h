#ifndef ALMANAC_CLIBXML2_H
#define ALMANAC_CLIBXML2_H

/* libxml2's pull parser (xmlTextReader), opened with dlopen by CalDAV only. Foundation's XMLParser
   (FoundationXML) linked libxml2 and ICU's common library into every `tools` start (~0.5 ms) for
   the few WebDAV bodies a CalDAV sync reads. The eight functions used are declared here with their
   libxml2 2.x signatures (a stable ABI), so no libxml2 headers are needed to build. */

/* An xmlTextReader. */
typedef struct almanac_xml_reader almanac_xml_reader;

/* The reader's node types we act on (libxml2's xmlReaderTypes). */
enum {
    ALMANAC_XML_ELEMENT = 1,
    ALMANAC_XML_TEXT = 3,
    ALMANAC_XML_CDATA = 4,
    ALMANAC_XML_SIGNIFICANT_WHITESPACE = 14,
    ALMANAC_XML_END_ELEMENT = 15,
};

/* Opens libxml2.so.2 once (thread-safe). Returns 0 when ready, else -1 and almanac_xml_error()
   says why. No other function here may be called before it returned 0. */
int almanac_xml_load(void);
/* Why almanac_xml_load failed; never NULL. */
const char *almanac_xml_error(void);

/* A reader over `size` bytes at `buffer` (kept by the caller until almanac_xml_free): no network
   access, no DTD loading, no entity substitution. NULL when it cannot be made. */
almanac_xml_reader *almanac_xml_reader_for_memory(const char *buffer, int size);
/* Moves to the next node: 1 when there is one, 0 at the end, -1 on malformed XML. */
int almanac_xml_read(almanac_xml_reader *reader);
int almanac_xml_node_type(almanac_xml_reader *reader);
int almanac_xml_is_empty_element(almanac_xml_reader *reader);
/* UTF-8, owned by the reader and valid until the next read; NULL when absent. */
const char *almanac_xml_local_name(almanac_xml_reader *reader);
const char *almanac_xml_namespace(almanac_xml_reader *reader);
const char *almanac_xml_value(almanac_xml_reader *reader);
void almanac_xml_free(almanac_xml_reader *reader);

#endif
