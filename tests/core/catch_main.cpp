// main() of the Catch2 test programs without a QApplication.
#include "catch_session.h"

int main(int argc, char** argv) { return pfa::test::runCatchSession(argc, argv); }
