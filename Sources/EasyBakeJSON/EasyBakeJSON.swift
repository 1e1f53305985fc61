import EasyBake
