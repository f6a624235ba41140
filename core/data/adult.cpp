#include "core/data/adult.h"

#include "core/data/catalog.h"

namespace pfa {

Schema adultSchema() { return findCatalogEntry("adult").schemaFor("sex"); }

TabularData loadAdult(const std::string& directory) {
    return findCatalogEntry("adult").load(directory, "sex");
}

}  // namespace pfa
